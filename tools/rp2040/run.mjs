// Boot real CircuitPython 10.3 (an RP2040 build with its console on a UART) in rp2040js 1.4.1,
// with a CIRCUITPY drive, a board's buttons, knob and NeoPixels, and its display's bytes.
//
//   node tools/rp2040/run.mjs --board macropad|pico-display|feather-oled --drive DIR [options]
//
// Grew from the team's first runner (its BOOTSEL pad, flash write emulation and SPI timing).
// --board (default pico-display) picks the firmware, the console UART, the flash size, the
// display's bus (SPI with its D/C and CS pins, or I2C), the NeoPixel pin and the knob's pins:
//   pico-display  Pico + Display Pack: UART0 (GP0), ST7789 on SPI0 (D/C GP16, CS GP17), 2 MiB
//   macropad      MacroPad: UART1 (GP20), SH1106 on SPI1 (D/C GP24, CS GP22), NeoPixels GP19,
//                 knob GP17/GP18, 8 MiB (a 7 MiB drive)
//   feather-oled  Feather RP2040 + OLED FeatherWing: UART0 (GP0), SH1107 at 0x3C on I2C1 (SDA
//                 GP2, SCL GP3, pull-ups modelled), NeoPixel GP16, 8 MiB
//
// options
//   --uf2 FILE          firmware (default: the board's in REPO/tools/circuitpython/firmware;
//                       ALTAR_CIRCUITPYTHON names another folder with a firmware/ of the same files)
//   --bootrom FILE      the RP2040's bootrom as a module exporting bootromB1 (default: bootrom.mjs here)
//   --drive DIR         CIRCUITPY from a folder: a FAT image made with mkfs.fat + mcopy
//   --fs IMAGE          CIRCUITPY from a FAT image (loaded at flash +0x100000)
//   --max-sec S         stop after S emulated seconds (default 30); exit 1 if --until was not met
//   --until TEXT        stop (exit 0) when the console has printed TEXT and the end of its line
//   --stop-at S         a power cut: stop at exactly S emulated seconds (exit 0), after which
//                       --dump-nvm / --dump-flash save what the flash holds at that moment
//   --press PIN@T0:T1,...  hold GPIO PIN low (pressed) from T0 to T1 emulated seconds. Every GPIO
//                       but the console's TX (and the I2C pins, modelled) reads high otherwise
//                       (rp2040js ignores pull-ups: a keypad.Keys(pull=True) button would read
//                       pressed without this)
//   --turn +N@T,...     turn the knob N detents clockwise (-N: anticlockwise) from emulated
//                       second T: 4 quadrature steps a detent, one every 2 ms
//   --type TEXT@T       the host types TEXT (UTF-8) on the console UART at emulated second T
//   --nvm FILE          seed the 4 KiB NVM sector (microcontroller.nvm) at flash +0xFF000
//   --dump-nvm FILE     save the NVM sector at the end;  --dump-flash FILE: CIRCUITPY's
//   --spi FILE          log the display's bytes (SPI with D/C, or I2C), format in FORMAT.md:
//                         # altar-spi 1
//                         C 2c 5.123456      command byte (D/C low), emulated seconds
//                         D 10c510c5...      data bytes (D/C high), hex, <= 4096 bytes a line
//                       SPI: only bytes sent with CS low; I2C: the bytes written to 0x3C, each
//                       write as `I <emulated seconds>` then one D line
//   --until-frames N    stop (exit 0) when N bursts of display data have ended (a burst: data
//                       with gaps under 20 ms; it has ended after 20 ms without any). Burst 1 is
//                       Altar's first screen on the Pico Display and the Feather, whose profiles
//                       start the display with auto_refresh off (the MacroPad's built-in display
//                       draws CircuitPython's console first)
//   --json FILE         a summary: stop reason, emulated seconds, console lines with the emulated
//                       time each began, display byte count, data bursts, the NVM sector's erases
//                       and page programs with their times, the NeoPixel frames and the PWM
//                       changes (see `summary` below)
//   --spi-sync          complete SPI bytes at once, as rp2040js does (reproduces the hang)
//   --usb               also show the USB CDC console;  --verbose: rp2040js debug log
//   --describe          print the board's preset as JSON (firmware, pins, drive size) and exit
//
// What rp2040js 1.4.1 lacks, added here:
//   - QSPI_SS pad reads high, so BOOTSEL reads released (boot hangs in port_boot_button_pressed).
//   - SPI bytes complete after their wire time (8 bits at the SPI clock), always. rp2040js completes
//     a byte as soon as it leaves the TX FIFO, so a TX DMA channel fills the 8-entry RX FIFO before
//     the RX DMA channel drains it; the overflowed bytes are lost and the RX channel (busio.SPI's
//     DMA write reads back as many bytes as it sends) waits for ever. displayio's first refresh
//     is such a write: that is where code.py stopped in the issue ("profile.build() does not
//     return"; the first runner had the fix only with --spi).
//   - WFI returns while an enabled interrupt is pending, even one masked by PRIMASK (ARMv6-M). In
//     rp2040js 1.4.1 a WFI sleeps on, unless another interrupt comes: CircuitPython's idle (masks
//     interrupts, checks for work, WFI, unmasks) then sleeps for ever if its tick's timer interrupt
//     came between the mask and the WFI. Altar's app stopped at a random key press that way.
//   - Flash erase and page program commands are decoded (via IO_QSPI's chip-select override and
//     the SSI data register), so microcontroller.nvm and the filesystem persist.
//   - PIO runs on the emulated clock: each enabled state machine executes as many instructions
//     as its clock divider allows in the cycles the core ran (an instruction's delay counted),
//     where rp2040js runs 1000 steps per host timer turn whatever the time. So a NeoPixel write
//     and the knob's rotaryio program take the emulated time they take on the chip.
//   - I2C (feather-oled): a target at 0x3C that ACKs and records what it is sent, on the I2C
//     block and at pin level (CircuitPython bit-bangs the 0-byte probes of i2c.scan() and
//     I2CDisplayBus), with the bus's pull-ups.
//   - Observed, not modelled: NeoPixel frames decoded from the pin's pulses, and the PWM slices'
//     compare and wrap registers (the Pico Display's RGB LED).
import fs from 'fs';
import os from 'os';
import path from 'path';
import { execFileSync } from 'child_process';
import { fileURLToPath, pathToFileURL } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const firmwareDir = path.join(process.env.ALTAR_CIRCUITPYTHON || path.join(repo, 'tools', 'circuitpython'),
                              'firmware');

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
// The boards (boards/*.py name the same pins): firmware, console UART and its TX pin, flash size,
// the display's bus, the NeoPixel pin, the knob's pins (the first falls first in a clockwise turn).
const BOARDS = {
  'pico-display': { uf2: 'circuitpython-10.3.0-alpha.4-raspberry_pi_pico-uart0.uf2', uart: 0, tx: 0,
                    flashMB: 2, panel: 'st7789', spi: 0, dc: 16, cs: 17 },
  macropad: { uf2: 'circuitpython-10.3.0-alpha.4-adafruit_macropad_rp2040-uart1.uf2', uart: 1, tx: 20,
              flashMB: 8, panel: 'sh1106', spi: 1, dc: 24, cs: 22, neopixel: 19, knob: [18, 17] },
  'feather-oled': { uf2: 'circuitpython-10.3.0-alpha.4-adafruit_feather_rp2040-uart0.uf2', uart: 0, tx: 0,
                    flashMB: 8, panel: 'sh1107', i2c: { sda: 2, scl: 3, addr: 0x3c }, neopixel: 16 },
};
const boardName = args.board || 'pico-display';
const board = BOARDS[boardName];
if (!board) { console.error(`run.mjs: unknown --board ${args.board}; one of ${Object.keys(BOARDS).join(', ')}`); process.exit(2); }
const uf2Path = args.uf2 || path.join(firmwareDir, board.uf2);
if (args.describe) { // the board as this runner runs it, for tools/altar_host/device/board_emu.py
  console.log(JSON.stringify({ ...board, board: boardName, uf2: uf2Path, drive_kb: board.flashMB * 1024 - 1024 }));
  process.exit(0);
}
const maxSec = Number(args['max-sec'] || 30);
const stopAt = args['stop-at'] !== undefined ? Number(args['stop-at']) : null;
const until = typeof args.until === 'string' ? args.until : null;
const untilFrames = args['until-frames'] !== undefined ? Number(args['until-frames']) : null;
const DC = Number(args.dc ?? board.dc), CS = Number(args.cs ?? board.cs);
const FLASH_BYTES = board.flashMB * 1024 * 1024;
const FS_OFFSET = 0x100000; // CIRCUITPY: 1020K firmware + 4K NVM
const NVM_OFFSET = 0xff000;

// The RP2040 B1 bootrom (pico-bootrom, BSD-3-Clause: LICENSE-bootrom.txt) as rp2040js's demo ships it.
const bootromPath = args.bootrom || path.join(here, 'bootrom.mjs');
for (const f of [uf2Path, bootromPath]) {
  if (!fs.existsSync(f)) { console.error(`run.mjs: ${f} is missing (ALTAR_CIRCUITPYTHON or --uf2/--bootrom)`); process.exit(2); }
}
const { bootromB1 } = await import(pathToFileURL(bootromPath).href);
// Imported only here so that --describe answers before `npm ci` has installed rp2040js.
const { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } = await import('rp2040js');

function fatImage(dir) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'altar-rp2040-'));
  const img = path.join(work, 'circuitpy.img');
  // FAT12 without an MBR, as CircuitPython formats the flash after the first MiB: 1 MiB in
  // 512-byte clusters, or 7 MiB in 2 KiB ones (os.statvfs on the board: 3569 blocks of 2 KiB)
  const kb = FLASH_BYTES / 1024 - 1024;
  execFileSync('mkfs.fat', ['-C', img, String(kb), '-S', '512', '-s', kb > 1024 ? '4' : '1', '-F', '12', '-n', 'CIRCUITPY'], { stdio: ['ignore', 'ignore', 'inherit'] });
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

// ---- Flash program/erase (from the first runner). rp2040js 1.4 only serves XIP reads: SSI
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
      case 0x9f: return [0, 0xef, 0x40, Math.log2(FLASH_BYTES)][i] ?? 0; // W25Q16JV / W25Q64JV
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

// ---- the display's bytes: SPI (each byte completes after its wire time), or I2C (below); the
// log and the bursts of display data (a burst: a screen, or the part of it that changed)
const BURST_GAP = 0.02; // s without display data that ends a burst (a frame is one burst)
const MAX_LIST = 100000; // console lines, bursts and NeoPixel frames kept for the summary
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
// Display data: the ST7789's RAMWR and RAMWRC pixels, an SH1106's data bytes (D/C high), an
// SH1107's data writes (I2C control byte 0x40).
function displayData(t, n = 1) {
  const b = spi.bursts[spi.bursts.length - 1];
  if (b && t - b.end < BURST_GAP) { b.end = t; b.bytes += n; }
  else if (spi.bursts.length < MAX_LIST) spi.bursts.push({ start: t, end: t, bytes: n });
}
if (board.spi !== undefined) {
  const port = mcu.spi[board.spi];
  const alarm = clock.createAlarm(() => port.completeTransmit(0));
  const pinLow = (p) => mcu.gpio[p].value === GPIOPinState.Low;
  const sync = !!args['spi-sync']; // rp2040js's own timing, to show the hang
  const st7789 = board.spi === 0 && board.dc === 16;
  port.onTransmit = (v) => {
    spi.n++;
    if (sync) port.completeTransmit(0);
    else alarm.schedule(Math.max(8e9 / (port.clockFrequency || 1e6), 8));
    if (!pinLow(CS)) return; // the controller is not listening
    const t = clock.nanos / 1e9;
    spi.logged++;
    if (pinLow(DC)) {
      spi.cmd = v;
      if (spiOut !== null) { flushData(); fs.writeSync(spiOut, `C ${v.toString(16).padStart(2, '0')} ${t.toFixed(6)}\n`); }
    } else {
      if (spiOut !== null) { dataBuf[dataLen++] = v; if (dataLen === dataBuf.length) flushData(); }
      if (!st7789 || spi.cmd === 0x2c || spi.cmd === 0x3c) displayData(t);
    }
  };
}

// ---- I2C (feather-oled): a target at the display's address on the I2C block, which ACKs and
// records each write (`I <t>` then its bytes as a D line in the --spi log); and the same target at
// pin level, with the bus's pull-ups: busio.I2C checks for them, and CircuitPython bit-bangs the
// 0-byte writes with which i2c.scan() and I2CDisplayBus probe an address (the block cannot send
// one). Other addresses are NACKed. From the first runner's --i2c and --i2c-pins.
const i2c = { writes: 0, bytes: 0 };
if (board.i2c) {
  const { sda, scl, addr } = board.i2c;
  const record = (t, bytes) => {
    if (!bytes.length) return;
    i2c.writes++; i2c.bytes += bytes.length;
    spi.logged += bytes.length;
    if (spiOut !== null) fs.writeSync(spiOut, `I ${t.toFixed(6)}\nD ${Buffer.from(bytes).toString('hex')}\n`);
    // display data: a write whose last control byte (Co = 0) says data (D/C = 1)
    let i = 0;
    while (i < bytes.length && bytes[i] & 0x80) i += 2;
    if (i < bytes.length && bytes[i] & 0x40) displayData(t, bytes.length - i - 1);
  };
  for (const port of mcu.i2c) {
    let cur = null;
    port.onStart = () => port.completeStart();
    port.onConnect = (a, mode) => {
      cur = (a & 0x7f) === addr && !mode ? { t: emuSec(), bytes: [] } : null;
      port.completeConnect(cur !== null);
    };
    port.onWriteByte = (b) => { if (cur) cur.bytes.push(b); port.completeWrite(true); };
    port.onReadByte = () => port.completeRead(0);
    port.onStop = () => { if (cur) record(cur.t, cur.bytes); cur = null; port.completeStop(); };
  }
  const gs = mcu.gpio[sda], gc = mcu.gpio[scl];
  let ack = false; // the target holds SDA low
  let lsda = true, lscl = true, st = 'idle', bits = 0, byte = 0;
  const low = (g) => g.outputEnable && !g.outputValue;
  const update = () => {
    const nsda = !(low(gs) || ack), nscl = !low(gc);
    if (gs.rawInputValue !== nsda) gs.setInputValue(nsda);
    if (gc.rawInputValue !== nscl) gc.setInputValue(nscl);
    const psda = lsda, pscl = lscl;
    lsda = nsda; lscl = nscl;
    if (pscl && nscl && psda !== nsda) { // SDA moves while SCL is high: START (falls), STOP (rises)
      st = nsda ? 'idle' : 'addr'; bits = 0; byte = 0; ack = false;
      return;
    }
    if (st === 'idle') return;
    if (!pscl && nscl && bits < 8) { byte = (byte << 1) | (nsda ? 1 : 0); bits++; }
    if (pscl && !nscl) { // SCL falls: after the 8th bit the target answers, after the 9th it lets go
      if (bits === 8) {
        ack = st === 'data' || (byte >> 1 === addr && !(byte & 1));
        st = ack ? 'data' : 'idle';
        bits = 9;
        if (ack) update();
      } else if (bits === 9) {
        bits = 0; byte = 0;
        if (ack) { ack = false; update(); }
      }
    }
  };
  gs.addListener(update); gc.addListener(update);
  gs.setInputValue(true); gc.setInputValue(true);
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
mcu.uart[board.uart].onByte = (b) => { const s = utf8.decode(Uint8Array.of(b), { stream: true }); if (s) onText(s); };
if (args.usb) {
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => console.error(`[run] USB CDC connected at emu ${emuSec().toFixed(3)}s`);
  cdc.onSerialData = (v) => process.stdout.write('[usb]' + Buffer.from(v).toString());
}

// ---- inputs: every GPIO but the console's TX idles high; --press holds pins low, --turn turns
// the knob. Events are the moments a pin changes, so each happens at its exact emulated time.
const events = []; // [seconds, pin, level]
const i2cPins = board.i2c ? [board.i2c.sda, board.i2c.scl] : [];
for (let p = 0; p < 30; p++) if (p !== board.tx && !i2cPins.includes(p)) mcu.gpio[p].setInputValue(true);
if (typeof args.press === 'string') {
  for (const spec of args.press.split(',')) {
    const m = spec.match(/^(\d+)@([\d.]+):([\d.]+)$/);
    if (!m) { console.error(`run.mjs: bad --press ${spec} (PIN@T0:T1)`); process.exit(2); }
    events.push([Number(m[2]), Number(m[1]), false], [Number(m[3]), Number(m[1]), true]);
  }
}
// A detent of the knob: both pins high at rest; clockwise, the first knob pin falls, then the
// second, then the first rises, then the second (a quarter of the cycle each).
const STEP_SEC = 0.002;
if (typeof args.turn === 'string') {
  if (!board.knob) { console.error(`run.mjs: --board ${args.board} has no knob`); process.exit(2); }
  for (const spec of args.turn.split(',')) {
    const m = spec.match(/^([+-]?\d+)@([\d.]+)$/);
    if (!m) { console.error(`run.mjs: bad --turn ${spec} (+N@T)`); process.exit(2); }
    const n = Number(m[1]);
    const [a, b] = n > 0 ? board.knob : [board.knob[1], board.knob[0]];
    let t = Number(m[2]);
    for (let d = 0; d < Math.abs(n); d++) {
      for (const [pin, level] of [[a, false], [b, false], [a, true], [b, true]]) {
        events.push([t, pin, level]);
        t += STEP_SEC;
      }
    }
  }
}
if (typeof args.type === 'string') {
  const at = args.type.lastIndexOf('@');
  if (at < 0) { console.error(`run.mjs: bad --type ${args.type} (TEXT@T)`); process.exit(2); }
  events.push([Number(args.type.slice(at + 1)), 'uart', Buffer.from(args.type.slice(0, at))]);
}
events.sort((a, b) => a[0] - b[0]);

// ---- PIO on the emulated clock. rp2040js steps a PIO block 1000 instructions per host timer turn
// (all four state machines, enabled or not); here the main loop gives each enabled state machine
// the cycles the core ran, divided by its clock divider, and an instruction uses 1 + its delay.
// A machine that waits (a FIFO, a pin, an IRQ) is checked once and left until the next cycles.
const pioNanos = [0, 0]; // per block: emulated ns of the instruction being stepped (edge times)
for (const pio of mcu.pio) {
  pio.run = () => {};
  for (const m of pio.machines) m.budget = 0;
}
function runPio(nanos) {
  for (let n = 0; n < 2; n++) {
    const pio = mcu.pio[n];
    if (pio.stopped) continue;
    const start = clock.nanos - nanos;
    for (const m of pio.machines) {
      if (!m.enabled) { m.budget = 0; continue; }
      const div = m.clockDivInt + m.clockDivFrac / 256 || 65536;
      const per = div * cycleNanos;
      // an instruction that ran past the last batch's end (budget < 0) started this one late
      let at = start - Math.min(m.budget, 0) * per;
      m.budget += nanos / per;
      while (m.budget > 0) {
        const c0 = m.cycles;
        pioNanos[n] = at;
        m.step();
        pio.checkChangedPins();
        const used = m.cycles - c0;
        if (!used) { m.budget = 0; break; } // waiting: nothing changes until something else does
        m.budget -= used;
        at += used * per;
      }
    }
  }
}

// ---- NeoPixels: the WS2812 bits on the board's pin, read from how long each high pulse lasts on
// the PIO's clock (a 1 is high about 0.8 us, a 0 about 0.4 us); a frame ends when the line has been
// low 50 us (the LEDs latch). Each frame: the emulated s of its first bit's rise (start) and of
// its last bit's fall (t), and its bytes (GRB per LED, as sent; hex).
const pixels = [];
if (board.neopixel !== undefined) {
  const g = mcu.gpio[board.neopixel];
  let rise = null, fall = 0, cur = null, first = 0;
  const now = () => (g.functionSelect === 6 || g.functionSelect === 7 ? pioNanos[g.functionSelect - 6] : clock.nanos);
  const close = (t) => {
    if (cur && t - fall > 50e3) {
      const bytes = [];
      for (let i = 0; i + 8 <= cur.length; i += 8) bytes.push(cur.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
      if (pixels.length < MAX_LIST) pixels.push({ start: first / 1e9, t: fall / 1e9, bytes: Buffer.from(bytes).toString('hex') });
      cur = null;
    }
  };
  g.addListener((v) => {
    const t = now();
    if (v === GPIOPinState.High) { close(t); if (!cur) first = t; rise = t; }
    else if (rise !== null) {
      (cur ||= []).push(t - rise > 600 ? 1 : 0);
      rise = null;
      fall = t;
    }
  });
  pixels.close = () => close(Infinity);
}

// ---- PWM: every change of a slice's compare or wrap value, with its emulated time, for the
// Pico Display's RGB LED (three PWM pins: GPn is slice n >> 1 & 7, channel A if n is even; its
// level is CC's half over TOP + 1). rp2040js times the outputs; only the registers are read here.
const pwm = [];
mcu.pwm.channels.forEach((ch, n) => {
  const write = ch.writeRegister.bind(ch);
  let last = '';
  ch.writeRegister = (off, v) => {
    write(off, v);
    const key = `${ch.cc} ${ch.top} ${ch.csr & 1}`;
    if ((off === 0x0c || off === 0x10 || off === 0x00) && key !== last && pwm.length < MAX_LIST) {
      last = key;
      pwm.push({ t: emuSec(), slice: n, cc: ch.cc >>> 0, top: ch.top, on: ch.csr & 1 });
    }
  };
});

let done = false;
const t0 = Date.now();
function finish(code, why) {
  if (done) return;
  done = true;
  if (spiOut !== null) { flushData(); fs.writeSync(spiOut, `# end ${emuSec().toFixed(6)} ${spi.logged}\n`); fs.closeSync(spiOut); }
  const wall = (Date.now() - t0) / 1000;
  console.error(`\n[run] stop: ${why}; emulated ${emuSec().toFixed(3)} s, wall ${wall.toFixed(1)} s, PC=0x${mcu.core.PC.toString(16)}`);
  const b = spi.bursts;
  if (board.i2c) console.error(`[run] I2C writes to the display: ${i2c.writes}, ${i2c.bytes} bytes; data bursts: ${b.length}`);
  else console.error(`[run] SPI${board.spi} bytes: ${spi.n} (${spi.logged} with CS low); data bursts: ${b.length}`);
  if (b.length) console.error(`[run] first burst ${b[0].start.toFixed(3)}-${b[0].end.toFixed(3)} s, last ${b[b.length - 1].start.toFixed(3)}-${b[b.length - 1].end.toFixed(3)} s`);
  if (pixels.close) { pixels.close(); console.error(`[run] NeoPixel frames: ${pixels.length}`); }
  if (args['spi-sync'] || args.verbose) {
    const s0 = mcu.spi[0];
    const busy = mcu.dma.channels.filter((c) => c.ctrl & 1 << 24).map((c) => `ch${c.index} treq ${c.treq} left ${c.transCount}`);
    console.error(`[run] SPI0 RX overrun ${!!(s0.intRaw & 1)}, RX FIFO ${s0.rxFIFO.itemCount}; DMA busy: ${busy.join(', ') || 'none'}`);
  }
  console.error(`[run] flash sector erases: ${flashStats.erase}, page programs: ${flashStats.program}`);
  if (typeof args['dump-nvm'] === 'string') fs.writeFileSync(args['dump-nvm'], mcu.flash.subarray(NVM_OFFSET, NVM_OFFSET + 4096));
  if (typeof args['dump-flash'] === 'string') fs.writeFileSync(args['dump-flash'], mcu.flash.subarray(FS_OFFSET, FLASH_BYTES));
  if (typeof args.json === 'string') {
    // summary: why it stopped, emulated and wall seconds, console lines, the display's byte counts
    // and data bursts ({start, end, bytes}: display data with gaps under 20 ms; the key keeps the
    // ST7789's name), flash writes, NVM writes, NeoPixel frames ({t, bytes}: hex as sent) and PWM
    // changes ({t, slice, cc, top, on})
    fs.writeFileSync(args.json, JSON.stringify({
      reason: why, code, board: boardName, emulated: emuSec(), wall, lines, spi_bytes: spi.n,
      spi_logged: spi.logged, ramwr_bursts: spi.bursts, flash: flashStats, nvm_writes: nvmWrites,
      pixels, pwm,
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
const PIO_BATCH = 2000; // ns the core runs between PIO visits while a state machine is enabled
let pioOwed = 0;
function slice() {
  const core = mcu.core;
  const pio0 = mcu.pio[0], pio1 = mcu.pio[1];
  let limit = Math.min(clock.nanos + SLICE, endNanos);
  if (events.length) limit = Math.min(limit, events[0][0] * 1e9);
  while (!done && clock.nanos < limit) {
    const before = clock.nanos;
    const pio = !pio0.stopped || !pio1.stopped;
    if (core.waiting && (core.pendingInterrupts & core.enabledInterrupts)) {
      core.waiting = false; // WFI returns: an interrupt is pending (see "WFI" at the top)
    } else if (core.waiting) {
      const n = clock.nanosToNextAlarm;
      let step = n > 0 ? Math.min(n, limit - clock.nanos) : cycleNanos;
      if (pio) step = Math.min(step, PIO_BATCH);
      clock.tick(step);
    } else {
      clock.tick(core.executeInstruction() * cycleNanos);
    }
    if (pio) {
      pioOwed += clock.nanos - before;
      if (pioOwed >= PIO_BATCH) { runPio(pioOwed); pioOwed = 0; }
    } else pioOwed = 0;
  }
  if (done) return;
  while (events.length && events[0][0] * 1e9 <= clock.nanos) {
    const [, pin, level] = events.shift();
    if (pin === 'uart') for (const b of level) mcu.uart[board.uart].feedByte(b);
    else mcu.gpio[pin].setInputValue(level);
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
