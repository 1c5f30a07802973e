// Run tools/rp2040/run.mjs with a model of the RP2040's XIP flash cache added.
//
//   node xip.mjs RP2040_DIR --xip-penalty CYCLES [run.mjs options...]
//
// rp2040js counts Cortex-M0+ cycles per instruction (1, +1 per load/store,
// +2 per taken branch...) but serves every flash read at once, as if the
// 16 KB XIP cache never missed. This wraps its memory reads: each read in the
// cached flash window goes through a 16 KB, 2-way set-associative cache of
// 8-byte lines (LRU) whose halves are filled one 4-byte word at a time, as the
// RP2040's cache does on a data miss. Every miss adds CYCLES to the
// instruction that caused it, so the emulated clock, and so time.monotonic_ns()
// in CircuitPython, include the stall. With --xip-penalty 0 it only counts.
// The counts go to stderr at the end as "[xip] ...".
import path from 'path';

const dir = path.resolve(process.argv[2]);
const rest = process.argv.slice(3);
const i = rest.indexOf('--xip-penalty');
const penalty = i >= 0 ? Number(rest[i + 1]) : 0;
if (i >= 0) rest.splice(i, 2);
process.argv = [process.argv[0], path.join(dir, 'run.mjs'), ...rest];

const esm = path.join(dir, 'node_modules/rp2040js/dist/esm');
const { RP2040 } = await import(path.join(esm, 'rp2040.js'));
const { CortexM0Core } = await import(path.join(esm, 'cortex-m0-core.js'));

const SETS = 1024; // 16 KB / 8-byte lines / 2 ways
const tags = new Int32Array(SETS * 2).fill(-1);
const valid = new Uint8Array(SETS * 2); // bit 0: low word, bit 1: high word
const lru = new Uint8Array(SETS); // the way to replace next
const stats = { reads: 0, misses: 0, uncached: 0, stall: 0 };
let pending = 0;

function access(address) {
  const a = address >>> 0;
  const win = a >>> 24;
  if (win < 0x10 || win > 0x13) return;
  stats.reads++;
  if (win >= 0x12) { // XIP_NOCACHE aliases: every read goes to the flash
    stats.uncached++;
    pending += penalty;
    return;
  }
  const off = a & 0xffffff;
  const set = (off >>> 3) & (SETS - 1);
  const tag = off >>> 13;
  const half = 1 << ((off >>> 2) & 1);
  for (let w = 0; w < 2; w++) {
    const k = set * 2 + w;
    if (tags[k] === tag) {
      lru[set] = 1 - w;
      if (valid[k] & half) return;
      valid[k] |= half;
      stats.misses++;
      pending += penalty;
      return;
    }
  }
  stats.misses++;
  pending += penalty;
  if (win === 0x11) return; // XIP_NOALLOC: looked up, not filled
  const w = lru[set];
  const k = set * 2 + w;
  tags[k] = tag;
  valid[k] = half;
  lru[set] = 1 - w;
}

for (const name of ['readUint32', 'readUint16', 'readUint8']) {
  const orig = RP2040.prototype[name];
  RP2040.prototype[name] = function (address) {
    access(address);
    return orig.call(this, address);
  };
}
const exec = CortexM0Core.prototype.executeInstruction;
CortexM0Core.prototype.executeInstruction = function () {
  pending = 0;
  const c = exec.call(this);
  if (pending) {
    this.cycles += pending;
    stats.stall += pending;
  }
  return c + pending;
};
process.on('exit', () => {
  console.error(`[xip] penalty ${penalty} cycles/miss; flash reads ${stats.reads}, misses ${stats.misses}` +
    ` (${(100 * stats.misses / Math.max(1, stats.reads)).toFixed(2)}%), uncached ${stats.uncached},` +
    ` stall cycles ${stats.stall}`);
});
await import(path.join(dir, 'run.mjs'));
