/** A line of the command's output, on stdout (what scripts read). */
export const out = (line: string) => process.stdout.write(line + '\n');

/** A line for the person at the terminal (progress, the next step), on stderr. */
export const note = (line: string) => process.stderr.write(line + '\n');

/**
 * A secret or other value piped in on stdin, never the command line (where `ps` shows it); a
 * person at a terminal is told what to paste and how to end it.
 */
export async function readStdin(prompt: string): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(`${prompt}, then press Enter and Ctrl-D: `);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}
