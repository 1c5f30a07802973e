// Boot real CircuitPython (raspberry_pi_pico build, console on UART0 GP0/GP1) in rp2040js 1.4.1,
// with a CIRCUITPY drive, the Pico Display Pack's buttons and its ST7789's SPI bytes.
//
//   node tools/rp2040/run.mjs --drive DIR [options]        (or --fs IMAGE)
//
// Starts from ../shared/rp2040/run.mjs (its BOOTSEL pad, flash write emulation and SPI timing).
//
// options
//   --uf2 FILE          firmware (default: REPO/../shared/rp2040/firmware/circuitpython-10.3.0-
//                       alpha.4-raspberry_pi_pico-uart0.uf2; ALTAR_RP2040 names another folder)
//   --drive DIR         CIRCUITPY from a folder: a 1 MiB FAT12 image made with mkfs.fat + mcopy
//   --fs IMAGE          CIRCUITPY from a FAT image (loaded at flash +0x100000)
//   --max-sec S         stop after S emulated seconds (default 30); exit 1 if --until was not met
//   --until TEXT        stop (exit 0) when the console has printed TEXT and the end of its line
//   --stop-at S         a power cut: stop at exactly S emulated seconds (exit 0), after which
//                       --dump-nvm / --dump-flash save what the flash holds at that moment
//   --press PIN@T0:T1,...  hold GPIO PIN low (pressed) from T0 to T1 emulated seconds. Every GPIO
//                       other than GP0 reads high otherwise (rp2040js ignores pull-ups, so a
//                       keypad.Keys(pull=True) button would read pressed without this)
//   --nvm FILE          seed the 4 KiB NVM sector (microcontroller.nvm) at flash +0xFF000
//   --dump-nvm FILE     save the NVM sector at the end;  --dump-flash FILE: CIRCUITPY's 1 MiB
//   --spi FILE          log SPI0's bytes with the D/C pin, format in FORMAT.md:
//                         # altar-spi 1
//                         C 2c 5.123456      command byte (D/C low), emulated seconds
//                         D 10c510c5...      data bytes (D/C high), hex, <= 4096 bytes a line
//                       only bytes sent with CS low; --dc PIN (16) and --cs PIN (17) name the pins
//   --until-frames N    stop (exit 0) when N RAMWR bursts have ended (a burst: RAMWR data with
//                       gaps under 20 ms; it has ended after 20 ms without any). On the Pico Display
//                       burst 1 is Altar's first screen (its display starts with auto_refresh off)
//   --json FILE         a summary: stop reason, emulated seconds, console lines with the emulated
//                       time each began, SPI byte count, RAMWR bursts and the NVM sector's erases
//                       and page programs with their times (see `summary` below)
//   --spi-sync          complete SPI bytes at once, as rp2040js does (reproduces the hang)
//   --usb               also show the USB CDC console;  --verbose: rp2040js debug log
//
// What rp2040js 1.4.1 lacks, added here:
//   - QSPI_SS pad reads high, so BOOTSEL reads released (boot hangs in port_boot_button_pressed).
//   - SPI bytes complete after their wire time (8 bits at the SPI clock), always. rp2040js completes
//     a byte as soon as it leaves the TX FIFO, so a TX DMA channel fills the 8-entry RX FIFO before
//     the RX DMA channel drains it; the overflowed bytes are lost and the RX channel (busio.SPI's
//     DMA write reads back as many bytes as it sends) waits for ever. displayio's first refresh
//     is such a write: that is where code.py stopped in the issue ("profile.build() does not
//     return"; the shared run.mjs has the fix only with --spi).
//   - WFI returns while an enabled interrupt is pending, even one masked by PRIMASK (ARMv6-M). In
//     rp2040js 1.4.1 a WFI sleeps on, unless another interrupt comes: CircuitPython's idle (masks
//     interrupts, checks for work, WFI, unmasks) then sleeps for ever if its tick's timer interrupt
//     came between the mask and the WFI. Altar's app stopped at a random key press that way.
//   - Flash erase and page program commands are decoded (via IO_QSPI's chip-select override and
//     the SSI data register), so microcontroller.nvm and the filesystem persist.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { execFileSync } from 'child_process';
import { fileURLToPath, pathToFileURL } from 'url';
import { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } from 'rp2040js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const shared = process.env.ALTAR_RP2040 || path.resolve(repo, '..', 'shared', 'rp2040');

// ---- options: --name value, or --name alone (true)
const args = {};
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (!a[i].startsWith('--')) { console.error(`run.mjs: unexpected argument ${a[i]}`); process.exit(2); }
    const name = a[i].slice(2);
    args[name] = a[i + 1] !== undefined && !a[i + 1].startsWith('--') ? a[++i] : true;
  }
}
const uf2Path = args.uf2 || path.join(shared, 'firmware', 'circuitpython-10.3.0-alpha.4-raspberry_pi_pico-uart0.uf2');
const maxSec = Number(args['max-sec'] || 30);
const stopAt = args['stop-at'] !== undefined ? Number(args['stop-at']) : null;
const until = typeof args.until === 'string' ? args.until : null;
const untilFrames = args['until-frames'] !== undefined ? Number(args['until-frames']) : null;
const DC = Number(args.dc ?? 16), CS = Number(args.cs ?? 17);
const FS_OFFSET = 0x100000; // CIRCUITPY: 1020K firmware + 4K NVM
const NVM_OFFSET = 0xff000;

// The RP2040 B1 bootrom (pico-bootrom, BSD-3-Clause) as rp2040js's demo ships it, from the shared
// folder that also holds the firmware (not copied here).
for (const f of [uf2Path, args.bootrom || path.join(shared, 'bootrom.mjs')]) {
  if (!fs.existsSync(f)) { console.error(`run.mjs: ${f} is missing (ALTAR_RP2040 or --uf2/--bootrom)`); process.exit(2); }
}
const { bootromB1 } = await import(pathToFileURL(args.bootrom || path.join(shared, 'bootrom.mjs')).href);

function fatImage(dir) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'altar-rp2040-'));
  const img = path.join(work, 'circuitpy.img');
  // 1 MiB FAT12, no MBR, as CircuitPython formats it
  execFileSync('mkfs.fat', ['-C', img, '1024', '-S', '512', '-s', '1', '-F', '12', '-n', 'CIRCUITPY'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const entries = fs.readdirSync(dir).map((n) => path.join(dir, n));
  if (entries.length) {
    execFileSync('mcopy', ['-s', '-i', img, ...entries, '::/'], { env: { ...process.env, MTOOLS_SKIP_CHECK: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const data = fs.readFileSync(img);
  fs.rmSync(work, { recursive: true, force: true });
  return data;
}

const sim = new Simulator();
const mcu = sim.rp2040;
const clock = sim.clock;
const emuSec = () => clock.nanos / 1e9;
mcu.loadBootrom(bootromB1);
mcu.logger = new ConsoleLogger(args.verbose ? LogLevel.Debug : LogLevel.Error);

// UF2: 512-byte blocks; target address @12, size @16, payload @32
{
  const uf2 = fs.readFileSync(uf2Path);
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const addr = uf2.readUInt32LE(off + 12);
    const size = uf2.readUInt32LE(off + 16);
    mcu.flash.set(uf2.subarray(off + 32, off + 32 + size), addr - 0x10000000);
  }
}
if (args.drive) mcu.flash.set(fatImage(path.resolve(String(args.drive))), FS_OFFSET);
else if (args.fs) mcu.flash.set(fs.readFileSync(String(args.fs)), FS_OFFSET);
if (typeof args.nvm === 'string') mcu.flash.set(fs.readFileSync(args.nvm).subarray(0, 4096), NVM_OFFSET);

// ---- Flash program/erase (from the shared run.mjs). rp2040js 1.4 only serves XIP reads: SSI
// writes are dropped and IO_QSPI is unimplemented. Model IO_QSPI SS_CTRL (the chip-select override
// the ROM uses) and a W25Q16JV command decoder (06 WREN, 05/35 status 0, 9F JEDEC, 4B UID, 03/0B
// read, 02 page program, 20/52/D8 erase). Writes to the NVM sector are listed with their emulated
// times (an erase takes none here: the chip's 45 ms or more are not modelled).
const flashStats = { erase: 0, program: 0 };
const nvmWrites = []; // {op: 'erase' | 'program', at: offset in the sector, start, end} (seconds)
{
  const flash = mcu.flash;
  const ioq = mcu.peripherals[0x40018];
  const ioqRegs = new Uint32Array(0x40 / 4);
  let csLow = false, cmd = [], rxq = [], csStart = 0;
  const FLASH_BYTES = 2 * 1024 * 1024;
  const endCmd = () => {
    const erase = cmd[0] === 0x20 || cmd[0] === 0x52 || cmd[0] === 0xd8;
    if (cmd.length >= 4 && erase) {
      const size = cmd[0] === 0x20 ? 4096 : cmd[0] === 0x52 ? 32768 : 65536;
      const a = ((cmd[1] << 16) | (cmd[2] << 8) | cmd[3]) & ~(size - 1);
      flash.fill(0xff, a, a + size);
      flashStats.erase++;
    }
    if (cmd.length >= 4 && (erase || cmd[0] === 0x02)) {
      const a = (cmd[1] << 16) | (cmd[2] << 8) | cmd[3];
      if (a >= NVM_OFFSET && a < NVM_OFFSET + 4096 && nvmWrites.length < 100000) {
        nvmWrites.push({ op: erase ? 'erase' : 'program', at: a - NVM_OFFSET, start: csStart, end: emuSec() });
      }
    }
    cmd = [];
  };
  ioq.readUint32 = (off) => ioqRegs[(off & 0x3f) >> 2];
  ioq.writeUint32 = (off, v) => {
    ioqRegs[(off & 0x3f) >> 2] = v;
    if ((off & 0x3f) === 0x0c) { // GPIO_QSPI_SS_CTRL
      const low = ((v >> 8) & 3) === 2;
      if (low && !csLow) { cmd = []; rxq = []; csStart = emuSec(); }
      if (!low && csLow) endCmd();
      csLow = low;
    }
  };
  const ssi = mcu.ssi || mcu.peripherals[0x18000];
  const ssiRead = ssi.readUint32.bind(ssi), ssiWrite = ssi.writeUint32.bind(ssi);
  const respond = (b) => {
    if (!csLow) return 0;
    cmd.push(b);
    const i = cmd.length - 1, c = cmd[0];
    if (i === 0) return 0;
    switch (c) {
      case 0x9f: return [0, 0xef, 0x40, 0x15][i] ?? 0;
      case 0x4b: return i >= 5 ? (0xe6 + i) & 0xff : 0;
      case 0x03: case 0x0b: {
        const hdr = c === 0x03 ? 4 : 5;
        if (i < hdr) return 0;
        const a = ((cmd[1] << 16) | (cmd[2] << 8) | cmd[3]) + (i - hdr);
        return flash[a % FLASH_BYTES];
      }
      case 0x02: {
        if (i >= 4) {
          const base = (cmd[1] << 16) | (cmd[2] << 8) | cmd[3];
          const a = (base & ~0xff) | ((base + i - 4) & 0xff);
          flash[a] &= b;
          if (i === 4) flashStats.program++;
        }
        return 0;
      }
      default: return 0;
    }
  };
  ssi.readUint32 = (off) => {
    if (off === 0x60) return rxq.length ? rxq.shift() : 0; // DR0
    if (off === 0x24) return rxq.length; // RXFLR
    if (off === 0x20) return 0; // TXFLR
    return ssiRead(off);
  };
  ssi.writeUint32 = (off, v) => {
    if (off === 0x60) { rxq.push(respond(v & 0xff)); if (rxq.length > 64) rxq.shift(); return; }
    if (off === 0x08 && !(v & 1)) rxq = []; // SSIENR=0 flushes the FIFOs
    ssiWrite(off, v);
  };
}

// ---- SPI0: each byte completes after its wire time; the log and the RAMWR bursts
const BURST_GAP = 0.02; // s without RAMWR data that ends a burst (a frame is one burst)
const MAX_LIST = 100000; // console lines and bursts kept for the summary
const spi = { n: 0, logged: 0, cmd: -1, bursts: [] };
let spiOut = null;
const dataBuf = Buffer.alloc(4096);
let dataLen = 0;
function flushData() {
  if (dataLen) { fs.writeSync(spiOut, 'D ' + dataBuf.toString('hex', 0, dataLen) + '\n'); dataLen = 0; }
}
if (typeof args.spi === 'string') {
  spiOut = fs.openSync(args.spi, 'w');
  fs.writeSync(spiOut, '# altar-spi 1\n');
}
{
  const spi0 = mcu.spi[0];
  const alarm = clock.createAlarm(() => spi0.completeTransmit(0));
  const pinLow = (p) => mcu.gpio[p].value === GPIOPinState.Low;
  const sync = !!args['spi-sync']; // rp2040js's own timing, to show the hang
  spi0.onTransmit = (v) => {
    spi.n++;
    if (sync) spi0.completeTransmit(0);
    else alarm.schedule(Math.max(8e9 / (spi0.clockFrequency || 1e6), 8));
    if (!pinLow(CS)) return; // the controller is not listening
    const t = clock.nanos / 1e9;
    spi.logged++;
    if (pinLow(DC)) {
      spi.cmd = v;
      if (spiOut !== null) { flushData(); fs.writeSync(spiOut, `C ${v.toString(16).padStart(2, '0')} ${t.toFixed(6)}\n`); }
    } else {
      if (spiOut !== null) { dataBuf[dataLen++] = v; if (dataLen === dataBuf.length) flushData(); }
      if (spi.cmd === 0x2c) {
        const b = spi.bursts[spi.bursts.length - 1];
        if (b && t - b.end < BURST_GAP) { b.end = t; b.bytes++; }
        else if (spi.bursts.length < MAX_LIST) spi.bursts.push({ start: t, end: t, bytes: 1 });
      }
    }
  };
}

// ---- console
let out = '';
const lines = []; // [emulated seconds when the line began, text]
let lineStart = true;
function onText(s) {
  process.stdout.write(s);
  out += s;
  if (lineStart && lines.length < MAX_LIST) lines.push([emuSec(), '']);
  lineStart = s === '\n';
  if (!lineStart && lines.length && lines.length <= MAX_LIST) lines[lines.length - 1][1] += s;
  if (until && out.includes(until) && out.indexOf('\n', out.indexOf(until)) >= 0) finish(0, `found "${until}"`);
}
const utf8 = new TextDecoder('utf-8');
mcu.uart[0].onByte = (b) => { const s = utf8.decode(Uint8Array.of(b), { stream: true }); if (s) onText(s); };
if (args.usb) {
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => console.error(`[run] USB CDC connected at emu ${emuSec().toFixed(3)}s`);
  cdc.onSerialData = (v) => process.stdout.write('[usb]' + Buffer.from(v).toString());
}

// ---- inputs: every GPIO but GP0 (UART TX) idles high; --press holds pins low. Events are the
// moments a pin changes, so each happens at its exact emulated time.
const events = []; // [seconds, pin, level]
for (let p = 1; p < 30; p++) mcu.gpio[p].setInputValue(true);
if (typeof args.press === 'string') {
  for (const spec of args.press.split(',')) {
    const m = spec.match(/^(\d+)@([\d.]+):([\d.]+)$/);
    if (!m) { console.error(`run.mjs: bad --press ${spec} (PIN@T0:T1)`); process.exit(2); }
    events.push([Number(m[2]), Number(m[1]), false], [Number(m[3]), Number(m[1]), true]);
  }
}
events.sort((a, b) => a[0] - b[0]);

let done = false;
const t0 = Date.now();
function finish(code, why) {
  if (done) return;
  done = true;
  if (spiOut !== null) { flushData(); fs.writeSync(spiOut, `# end ${emuSec().toFixed(6)} ${spi.logged}\n`); fs.closeSync(spiOut); }
  const wall = (Date.now() - t0) / 1000;
  console.error(`\n[run] stop: ${why}; emulated ${emuSec().toFixed(3)} s, wall ${wall.toFixed(1)} s, PC=0x${mcu.core.PC.toString(16)}`);
  const b = spi.bursts;
  console.error(`[run] SPI0 bytes: ${spi.n} (${spi.logged} with CS low); RAMWR bursts: ${b.length}` +
    (b.length ? `, first ${b[0].start.toFixed(3)}-${b[0].end.toFixed(3)} s, last ${b[b.length - 1].start.toFixed(3)}-${b[b.length - 1].end.toFixed(3)} s` : ''));
  if (args['spi-sync'] || args.verbose) {
    const s0 = mcu.spi[0];
    const busy = mcu.dma.channels.filter((c) => c.ctrl & 1 << 24).map((c) => `ch${c.index} treq ${c.treq} left ${c.transCount}`);
    console.error(`[run] SPI0 RX overrun ${!!(s0.intRaw & 1)}, RX FIFO ${s0.rxFIFO.itemCount}; DMA busy: ${busy.join(', ') || 'none'}`);
  }
  console.error(`[run] flash sector erases: ${flashStats.erase}, page programs: ${flashStats.program}`);
  if (typeof args['dump-nvm'] === 'string') fs.writeFileSync(args['dump-nvm'], mcu.flash.subarray(NVM_OFFSET, NVM_OFFSET + 4096));
  if (typeof args['dump-flash'] === 'string') fs.writeFileSync(args['dump-flash'], mcu.flash.subarray(FS_OFFSET, FS_OFFSET + 0x100000));
  if (typeof args.json === 'string') {
    // summary: why it stopped, emulated and wall seconds, console lines, SPI counts and RAMWR
    // bursts ({start, end, bytes}: RAMWR data with gaps under 20 ms), flash writes, NVM writes
    fs.writeFileSync(args.json, JSON.stringify({
      reason: why, code, emulated: emuSec(), wall, lines, spi_bytes: spi.n, spi_logged: spi.logged,
      ramwr_bursts: spi.bursts, flash: flashStats, nvm_writes: nvmWrites,
    }));
  }
  process.exit(code);
}

// QSPI_SS (BOOTSEL sense) reads high = released: rp2040js resets pads with IE=0 (0x36); the real
// QSPI_SS pad resets to 0x5a (IE=1, pull-up)
mcu.qspi[1].padValue = 0x5a;
mcu.qspi[1].setInputValue(true);
mcu.core.PC = 0x10000000; // enter boot2 directly, as the rp2040js demo does

const cycleNanos = 1e9 / 125e6;
const SLICE = 5e6; // ns of emulated time between visits to Node's event loop
const endNanos = (stopAt !== null ? Math.min(stopAt, maxSec) : maxSec) * 1e9;
function slice() {
  const core = mcu.core;
  let limit = Math.min(clock.nanos + SLICE, endNanos);
  if (events.length) limit = Math.min(limit, events[0][0] * 1e9);
  while (!done && clock.nanos < limit) {
    if (core.waiting && (core.pendingInterrupts & core.enabledInterrupts)) {
      core.waiting = false; // WFI returns: an interrupt is pending (see "WFI" at the top)
    } else if (core.waiting) {
      const n = clock.nanosToNextAlarm;
      clock.tick(n > 0 ? Math.min(n, limit - clock.nanos) : cycleNanos);
    } else {
      clock.tick(core.executeInstruction() * cycleNanos);
    }
  }
  if (done) return;
  while (events.length && events[0][0] * 1e9 <= clock.nanos) {
    const [, pin, level] = events.shift();
    mcu.gpio[pin].setInputValue(level);
  }
  if (untilFrames !== null && spi.bursts.length >= untilFrames &&
      clock.nanos / 1e9 - spi.bursts[untilFrames - 1].end > BURST_GAP) {
    return finish(0, `RAMWR burst ${untilFrames} ended at ${spi.bursts[untilFrames - 1].end.toFixed(3)}s`);
  }
  if (clock.nanos >= endNanos) {
    if (stopAt !== null && stopAt <= maxSec) return finish(0, `stop-at ${stopAt}s (power cut)`);
    return finish(until || untilFrames !== null ? 1 : 0, `max emulated time ${maxSec}s`);
  }
  setImmediate(slice);
}
process.on('SIGINT', () => finish(130, 'SIGINT'));
slice();
