// Types for bin/node-flags.js (plain JS: it must parse on old Nodes, like bin/airlock.js).
export declare const ASYNC_CONTEXT_FRAME: '--experimental-async-context-frame';
export declare const V8_POOL_SIZE: '--v8-pool-size=2';
export declare function nodeFlags(
  version?: string,
  allowed?: { has(flag: string): boolean },
): string[];
