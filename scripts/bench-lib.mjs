// Shared helpers for the benchmark scripts: percentiles and printing.
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summary(samples) {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), n: samples.length };
}

export const ms = (x) => `${x.toFixed(3)} ms`;

export function row(label, value, target) {
  console.log(
    `  ${label.padEnd(58)} ${String(value).padStart(14)}${target ? `   (target ${target})` : ''}`,
  );
}

export async function timeEach(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}
