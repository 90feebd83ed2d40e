/**
 * A seccomp filter for sandboxes that share the host's network (network
 * "any", issue 35). Abstract Unix sockets belong to the network namespace,
 * not the file system, so a bind-mount sandbox does not hide them: the
 * session bus (`unix:abstract=…`, and through it the keychain's Secret
 * Service) and X11 (`@/tmp/.X11-unix/X0`) would be one `connect` away. With
 * network "none" or a host list the sandbox has its own network namespace and
 * needs none of this.
 *
 * The filter refuses `socket(AF_UNIX, …)` with EACCES — a program can still
 * use the socket pairs it inherited or makes with `socketpair` (Node's and
 * libuv's child-process pipes), which reach nothing outside — and refuses
 * `io_uring_setup` with ENOSYS (io_uring can create sockets without the
 * `socket` system call; libuv falls back to threads). System calls of another
 * architecture (x32, i386 `socketcall`) are refused outright.
 *
 * Classic BPF over `struct seccomp_data` (linux/seccomp.h): nr at 0, arch at
 * 4, args[0] at 16 (low word on little-endian). bwrap loads it from a file
 * descriptor (`--seccomp FD`) after setting up the sandbox.
 */
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EACCES = 13;
const ENOSYS = 38;
const AF_UNIX = 1;
const X32_BIT = 0x40000000;

interface Arch {
  audit: number;
  socket: number;
  ioUringSetup: number;
  /** x86-64 only: x32 system calls carry this bit. */
  x32?: boolean;
}

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

/** The program as bytes for `--seccomp`, or undefined on an architecture it has no numbers for. */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const denyOther = RET_ERRNO | ENOSYS;
  // [code, jt, jf, k]; jumps are relative to the next instruction.
  const prog: [number, number, number, number][] = [
    [BPF_LD_W_ABS, 0, 0, 4], // 0: A = arch
    [BPF_JEQ_K, 1, 0, a.audit], // 1: native → 3
    [BPF_RET_K, 0, 0, denyOther], // 2: another ABI
    [BPF_LD_W_ABS, 0, 0, 0], // 3: A = nr
    [BPF_JGE_K, 0, 1, a.x32 ? X32_BIT : 0xffffffff], // 4: x32 → 5, else → 6
    [BPF_RET_K, 0, 0, denyOther], // 5
    [BPF_JEQ_K, 0, 1, a.ioUringSetup], // 6: io_uring_setup → 7, else → 8
    [BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS], // 7
    [BPF_JEQ_K, 0, 3, a.socket], // 8: socket → 9, else → 12
    [BPF_LD_W_ABS, 0, 0, 16], // 9: A = args[0] (low 32 bits)
    [BPF_JEQ_K, 0, 1, AF_UNIX], // 10: AF_UNIX → 11, else → 12
    [BPF_RET_K, 0, 0, RET_ERRNO | EACCES], // 11
    [BPF_RET_K, 0, 0, RET_ALLOW], // 12
  ];
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}
