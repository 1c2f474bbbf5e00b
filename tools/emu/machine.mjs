// An RP2040 that runs the stock MicroPython firmware faithfully enough to measure a game on it.
//
// rp2040js (pinned in package.json) supplies the Cortex-M0+ core and most peripherals. This module
// adds what the stock library gets wrong for MicroPython (../../../shared/reference/emulator.md lists
// the seven points; each is a named option here so a test can switch it off and see it matter):
//
//   chipReset   VREG_AND_CHIP_RESET with its power-on values (else the B1 bootrom parks the core)
//   bootselPad  the QSPI SS pad reads high (else the bootrom thinks BOOTSEL is held)
//   norFlash    an SPI NOR chip (W25Q16JV) behind the SSI with a real RX FIFO and busy times, chip
//               select from IO_QSPI's SS output override (else saves never reach the flash)
//   usbIdle     the USB host answers an armed OUT endpoint only when it has bytes to send (else an
//               interrupt storm makes everything ~3.4x slower)
//   spiTiming   each SPI byte completes after 8 SCK periods at the programmed rate
//   xipCache    16 KB 2-way XIP cache with 8-byte lines; a miss costs XIP_MISS_CYCLES
//   pullUps     the board's button pins idle high (the internal pull-ups are not modelled)
//
// On top: the ADC of a Pico on USB power (VSYS on GP29 through its divider), an ST7789 panel decoded from SPI (CASET/RASET/RAMWR/MADCTL into a 240x320 GRAM), GPIO
// buttons, USB CDC serial both ways, and a reader of MicroPython's GC heap straight from RAM (free
// bytes and the largest free block, without running any code on the device).

import { BasePeripheral, RP2040, USBCDC } from "rp2040js";

export const CYCLE_NS = 8; // 125 MHz
export const XIP_MISS_CYCLES = 60;
const BUSY_NS = { program: 400e3, erase4k: 45e6, erase32k: 120e6, erase64k: 150e6, chip: 5e9, status: 5e6 };

export const ALL_FIXES = ["chipReset", "bootselPad", "norFlash", "usbIdle", "spiTiming", "xipCache", "pullUps"];

// -- 1. VREG_AND_CHIP_RESET --------------------------------------------------------------------

class ChipReset extends BasePeripheral {
  constructor(rp2040, name) {
    super(rp2040, name);
    this.vreg = 0xb1;
    this.bod = 0x91;
    this.chipReset = 0x100; // HAD_POR
  }
  readUint32(offset) {
    if (offset === 0) return this.vreg;
    if (offset === 4) return this.bod;
    if (offset === 8) return this.chipReset;
    return 0;
  }
  writeUint32(offset, value) {
    if (offset === 0) this.vreg = value & 0xff;
    else if (offset === 4) this.bod = value & 0xff;
    else if (offset === 8 && value & (1 << 24)) this.chipReset &= ~(1 << 24);
  }
}

// -- 2./3. IO_QSPI: pad state and the flash chip select ---------------------------------------

class IoQspi extends BasePeripheral {
  constructor(rp2040, name, onChipSelect) {
    super(rp2040, name);
    this.ctrl = new Uint32Array(6);
    this.onChipSelect = onChipSelect;
  }
  readUint32(offset) {
    const pin = offset >> 3;
    if (pin < 6 && offset & 4) return this.ctrl[pin];
    if (pin < 6) return 1 << 17; // STATUS: INFROMPAD high (SS pulled up: BOOTSEL not pressed)
    return 0;
  }
  writeUint32(offset, value) {
    const pin = offset >> 3;
    if (pin >= 6 || !(offset & 4)) return;
    this.ctrl[pin] = value;
    if (pin === 1) {
      const over = (value >> 8) & 3; // OUTOVER: 0 peripheral, 2 low, 3 high
      this.onChipSelect(over === 2 ? 0 : over === 3 ? 1 : null);
    }
  }
}

// -- 3. W25Q16JV-like NOR flash ---------------------------------------------------------------

export class NorFlash {
  constructor(mem, clock, uniqueId) {
    this.mem = mem; // the emulator's flash array (XIP reads it directly)
    this.clock = clock;
    this.uniqueId = uniqueId;
    this.busyUntil = 0;
    this.wel = false;
    this.selected = false;
    this.writes = 0; // page programs and erases, for tests
  }
  select() {
    this.selected = true;
    this.cmd = -1;
    this.n = 0;
    this.addr = 0;
    this.pending = null;
  }
  deselect() {
    if (!this.selected) return;
    this.selected = false;
    const p = this.pending;
    if (!p) return;
    const now = this.clock.nanos;
    if (p === "program") {
      this.busyUntil = now + BUSY_NS.program;
    } else if (p === "status") {
      this.busyUntil = now + BUSY_NS.status;
    } else {
      const size = { erase4k: 4096, erase32k: 32768, erase64k: 65536, chip: 0x200000 }[p];
      const start = p === "chip" ? 0 : this.addr & ~(size - 1) & 0x1fffff;
      this.mem.fill(0xff, start, start + size);
      this.busyUntil = now + BUSY_NS[p];
      this.writes++;
    }
    this.wel = false;
  }
  get busy() {
    return this.clock.nanos < this.busyUntil;
  }
  transfer(b) {
    if (!this.selected) return 0xff;
    const i = this.n++;
    if (i === 0) {
      this.cmd = b;
      if (this.busy && b !== 0x05 && b !== 0x35) this.cmd = -1; // ignored while busy
      else if (b === 0x06) this.wel = true;
      else if (b === 0x04) this.wel = false;
      else if ((b === 0xc7 || b === 0x60) && this.wel) this.pending = "chip";
      return 0xff;
    }
    const c = this.cmd;
    if (c === 0x05) return (this.busy ? 1 : 0) | (this.wel ? 2 : 0);
    if (c === 0x35) return 0x02; // QE set: boot2 leaves the status registers alone
    if (c === 0x9f) return [0xef, 0x40, 0x15][i - 1] ?? 0;
    if (c === 0x4b) return i >= 5 && i < 13 ? this.uniqueId[i - 5] : 0;
    if (c === 0x01) {
      if (this.wel) this.pending = "status";
      return 0xff;
    }
    const addressed = c === 0x03 || c === 0x0b || c === 0x02 || c === 0x20 || c === 0x52 || c === 0xd8;
    if (!addressed) return 0xff;
    if (i <= 3) {
      this.addr = (this.addr << 8) | b;
      if (i === 3 && this.wel) {
        if (c === 0x20) this.pending = "erase4k";
        else if (c === 0x52) this.pending = "erase32k";
        else if (c === 0xd8) this.pending = "erase64k";
      }
      return 0xff;
    }
    if (c === 0x03 || (c === 0x0b && i > 4)) return this.mem[this.addr++ & 0x1fffff];
    if (c === 0x02 && this.wel) {
      const a = this.addr & 0x1fffff;
      this.mem[(a & ~0xff) | ((a + i - 4) & 0xff)] &= b; // programming only clears bits; wraps in the page
      if (this.pending !== "program") this.writes++;
      this.pending = "program";
    }
    return 0xff;
  }
}

const SSI = { CTRLR0: 0x00, CTRLR1: 0x04, SSIENR: 0x08, SER: 0x10, BAUDR: 0x14, TXFLR: 0x20, RXFLR: 0x24, SR: 0x28, DR0: 0x60 };

// The SSI as the bootrom and SDK drive it to program flash: every DR0 write clocks one byte both
// ways. With chip select forced through IO_QSPI the transaction is explicit; when the SSI drives
// it (boot2), a transaction runs from the first write until the RX FIFO has been read empty.
class SsiFlash extends BasePeripheral {
  constructor(rp2040, name, nor) {
    super(rp2040, name);
    this.nor = nor;
    this.regs = new Uint32Array(64);
    this.rx = [];
    this.forced = null; // null: the SSI drives CS; 0/1: forced low/high
  }
  chipSelect(level) {
    this.forced = level;
    if (level === 0) this.nor.select();
    else this.nor.deselect();
  }
  readUint32(offset) {
    switch (offset) {
      case SSI.TXFLR:
        return 0;
      case SSI.RXFLR:
        return this.rx.length;
      case SSI.SR:
        return 0x06 | (this.rx.length ? 0x08 : 0); // TFNF, TFE, RFNE; never busy
      case SSI.DR0: {
        const v = this.rx.length ? this.rx.shift() : 0;
        if (this.forced === null && !this.rx.length) this.nor.deselect();
        return v;
      }
      case 0x58:
        return 0x51535049; // IDR
      case 0x5c:
        return 0x3430312a; // SSI_VERSION_ID
    }
    return this.regs[offset >> 2] || 0;
  }
  writeUint32(offset, value) {
    if (offset === SSI.DR0) {
      if (this.forced === null && !this.nor.selected) this.nor.select();
      const r = this.nor.transfer(value & 0xff);
      if (this.rx.length < 16) this.rx.push(r);
      return;
    }
    if (offset === SSI.SSIENR && this.forced === null) {
      this.nor.deselect();
      this.rx.length = 0;
    }
    if (offset < 0x100) this.regs[offset >> 2] = value;
  }
}

// -- 6. XIP_CTRL: FLUSH empties the cache model -------------------------------------------------

class XipCtrl extends BasePeripheral {
  constructor(rp2040, name, onFlush) {
    super(rp2040, name);
    this.onFlush = onFlush;
    this.ctrl = 3;
  }
  readUint32(offset) {
    if (offset === 0) return this.ctrl;
    if (offset === 8) return 0x3; // STAT: flush ready, FIFO empty
    return 0;
  }
  writeUint32(offset, value) {
    if (offset === 0) this.ctrl = value;
    else if (offset === 4 && value & 1) this.onFlush();
  }
}

// -- the ST7789 panel ------------------------------------------------------------------------

export class Panel {
  constructor() {
    this.gram = new Uint16Array(240 * 320);
    this.reset();
    this.pixelBytes = 0; // RAMWR data bytes received
    this.lastPixelNs = 0;
  }
  reset() {
    this.gram.fill(0);
    this.madctl = 0;
    this.inverted = false;
    this.sleeping = true;
    this.on = false;
    this.cmd = -1;
    this.args = [];
    this.xs = 0; this.xe = 239; this.ys = 0; this.ye = 319;
    this.cx = 0; this.cy = 0;
    this.half = -1;
  }
  command(c) {
    this.cmd = c;
    this.args = [];
    this.half = -1;
    if (c === 0x01) this.reset();
    else if (c === 0x10) this.sleeping = true;
    else if (c === 0x11) this.sleeping = false;
    else if (c === 0x20) this.inverted = false;
    else if (c === 0x21) this.inverted = true;
    else if (c === 0x28) this.on = false;
    else if (c === 0x29) this.on = true;
    else if (c === 0x2c) { this.cx = this.xs; this.cy = this.ys; }
  }
  data(b, nanos) {
    const c = this.cmd;
    if (c === 0x2c) {
      this.pixelBytes++;
      this.lastPixelNs = nanos;
      if (this.half < 0) { this.half = b; return; }
      this.put(this.cx, this.cy, (this.half << 8) | b);
      this.half = -1;
      if (++this.cx > this.xe) { this.cx = this.xs; this.cy++; }
      return;
    }
    this.args.push(b);
    const a = this.args;
    if (c === 0x2a && a.length === 4) { this.xs = (a[0] << 8) | a[1]; this.xe = (a[2] << 8) | a[3]; }
    else if (c === 0x2b && a.length === 4) { this.ys = (a[0] << 8) | a[1]; this.ye = (a[2] << 8) | a[3]; }
    else if (c === 0x36 && a.length === 1) this.madctl = b;
  }
  // Logical (column, row) address under MADCTL -> index in the 240x320 GRAM.
  static physical(col, row, madctl) {
    let pc = madctl & 0x20 ? row : col;
    let pr = madctl & 0x20 ? col : row;
    if (madctl & 0x40) pc = 239 - pc;
    if (madctl & 0x80) pr = 319 - pr;
    if (pc < 0 || pc > 239 || pr < 0 || pr > 319) return -1;
    return pr * 240 + pc;
  }
  put(col, row, v) {
    const i = Panel.physical(col, row, this.madctl);
    if (i >= 0) this.gram[i] = v;
  }
  // What a person sees in the board's window: RGB565 values, row by row.
  window(madctl, w, h, xoff, yoff) {
    const out = new Uint16Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = Panel.physical(x + xoff, y + yoff, madctl);
        out[y * w + x] = i >= 0 ? this.gram[i] : 0;
      }
    return out;
  }
}

// -- the ADC: a Pico on USB power -------------------------------------------------------------
// Stock rp2040js reads 0 V on every channel, so the title screen showed a red "battery 0%".
// A Pico on USB has VSYS at about 5 V; GP29 (ADC3) sees a third of it through the Pico's
// divider. ADC4, the temperature sensor, reads 0.706 V (27 degrees C). 12-bit codes of 3.3 V.

export const VSYS_USB = 5.0;

export function adcCode(volts) {
  return Math.max(0, Math.min(4095, Math.round((volts / 3.3) * 4096)));
}

// -- the machine ------------------------------------------------------------------------------

export class Pico {
  // opts: bootrom (Uint32Array), flash (Uint8Array image from offset 0), fixes (list; default all),
  // pullUps (pin numbers), spi: {id, dc, cs} for the panel, serialNumber, vsys (volts; USB's 5)
  constructor(opts) {
    const fixes = new Set(opts.fixes ?? ALL_FIXES);
    this.fixes = fixes;
    const mcu = new RP2040();
    this.mcu = mcu;
    mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
    mcu.loadBootrom(opts.bootrom); // (resets, which fills flash with 0xff: load flash after)
    mcu.flash.set(opts.flash);
    this.clock = mcu.clock;
    this.penalty = 0;
    if (fixes.has("chipReset")) mcu.peripherals[0x40064] = new ChipReset(mcu, "VREG_AND_CHIP_RESET");
    const uid = opts.uniqueId ?? [0xe6, 0x61, 0x38, 0x52, 0x83, 0x2a, 0x5c, 0x2f];
    this.nor = new NorFlash(mcu.flash, this.clock, uid);
    let ssi = null;
    if (fixes.has("norFlash")) {
      ssi = new SsiFlash(mcu, "SSI", this.nor);
      mcu.peripherals[0x18000] = ssi;
    }
    mcu.peripherals[0x40018] = new IoQspi(mcu, "IO_QSPI", (lvl) => ssi && ssi.chipSelect(lvl));
    if (fixes.has("bootselPad")) {
      mcu.qspi[1].padValue = 0x5a; // GPIO_QSPI_SS reset value: input enabled, pulled up
      mcu.qspi[1].setInputValue(true);
    }
    this.xip = fixes.has("xipCache");
    this.xipTags = new Int32Array(2048).fill(-1);
    this.xipVictim = new Uint8Array(1024);
    this.xipMisses = 0;
    mcu.peripherals[0x14000] = new XipCtrl(mcu, "XIP_CTRL", () => this.xipTags.fill(-1));
    if (this.xip) this.installXip();
    this.pullUps = opts.pullUps ?? [];
    if (fixes.has("pullUps")) for (const p of this.pullUps) mcu.gpio[p].setInputValue(true);
    mcu.adc.channelValues[3] = adcCode((opts.vsys ?? VSYS_USB) / 3);
    mcu.adc.channelValues[4] = adcCode(0.706);
    this.panel = new Panel();
    this.installSpi(opts.spi ?? { id: 0, dc: 16, cs: 17 });
    this.serialOut = [];
    this.installUsb();
  }

  installXip() {
    const core = this.mcu.core;
    const chip = this.mcu;
    const tags = this.xipTags;
    const victim = this.xipVictim;
    const self = this;
    const touch = (addr) => {
      if (addr < 0x10000000 || addr >= 0x14000000) return;
      const alias = (addr >>> 24) & 3;
      if (alias >= 2) { self.penalty += XIP_MISS_CYCLES; self.xipMisses++; return; }
      const line = (addr & 0xffffff) >>> 3;
      const set = line & 1023;
      const tag = line >>> 10;
      const w = set << 1;
      if (tags[w] === tag) { victim[set] = 1; return; }
      if (tags[w + 1] === tag) { victim[set] = 0; return; }
      self.penalty += XIP_MISS_CYCLES;
      self.xipMisses++;
      if (alias === 1) return; // NOALLOC alias: looks up, never fills
      const v = victim[set];
      tags[w + v] = tag;
      victim[set] = v ^ 1;
    };
    core.readUint32 = (a) => { touch(a >>> 0); return chip.readUint32(a); };
    core.readUint16 = (a) => { touch(a >>> 0); return chip.readUint16(a); };
    core.readUint8 = (a) => { touch(a >>> 0); return chip.readUint8(a); };
  }

  installSpi({ id, dc, cs }) {
    const spi = this.mcu.spi[id];
    const gpio = this.mcu.gpio;
    const panel = this.panel;
    const clock = this.clock;
    this.spiBytes = 0;
    const timed = this.fixes.has("spiTiming");
    const done = clock.createAlarm(() => spi.completeTransmit(0)); // the panel sends nothing back
    spi.onTransmit = (value) => {
      this.spiBytes++;
      const byteNs = timed && spi.clockFrequency ? 8e9 / spi.clockFrequency : 0; // 8 SCK periods
      if (!gpio[cs].outputValue) {
        if (gpio[dc].outputValue) panel.data(value & 0xff, clock.nanos + byteNs);
        else panel.command(value & 0xff);
      }
      if (byteNs) done.schedule(byteNs);
      else spi.completeTransmit(0);
    };
  }

  installUsb() {
    const cdc = new USBCDC(this.mcu.usbCtrl);
    this.cdc = cdc;
    cdc.onSerialData = (buf) => { for (const b of buf) this.serialOut.push(b); };
    this.inbox = []; // bytes for the device beyond what the CDC FIFO holds
    this.pendingOut = 0;
    const usb = this.mcu.usbCtrl;
    const answer = usb.onEndpointRead;
    this.answerOut = answer;
    const idle = this.fixes.has("usbIdle");
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint === cdc.outEndpoint) {
        this.feed();
        if (idle && cdc.txFIFO.itemCount === 0) {
          this.pendingOut = size; // a real host NAKs until it has something to send
          return;
        }
      }
      answer(endpoint, size);
    };
  }

  feed() {
    const f = this.cdc.txFIFO;
    while (this.inbox.length && f.itemCount < f.size) f.push(this.inbox.shift());
  }

  serialWrite(bytes) {
    for (const b of bytes) this.inbox.push(b);
    this.feed();
    if (this.pendingOut && this.cdc.outEndpoint >= 0) {
      const size = this.pendingOut;
      this.pendingOut = 0;
      this.answerOut(this.cdc.outEndpoint, size);
    }
  }

  serialText() {
    const s = Buffer.from(this.serialOut).toString("latin1");
    this.serialOut = [];
    return s;
  }

  get nanos() {
    return this.clock.nanos;
  }

  // Run until the emulated clock reaches `target` ns, or stop() returns true (checked every 4096
  // instructions). Idle waits (WFE/WFI) jump to the next timer alarm.
  runUntil(target, stop) {
    const core = this.mcu.core;
    const clock = this.clock;
    let n = 0;
    while (clock.nanos < target) {
      if (core.waiting) {
        const dt = clock.nanosToNextAlarm;
        clock.tick(dt > 0 ? Math.min(dt, target - clock.nanos) : Math.min(1000, target - clock.nanos));
        if (core.interruptsUpdated && core.checkForInterrupts()) core.waiting = false;
      } else {
        this.penalty = 0;
        const cycles = core.executeInstruction();
        clock.tick((cycles + this.penalty) * CYCLE_NS);
      }
      if ((++n & 4095) === 0 && stop && stop()) return true;
    }
    return false;
  }

  setPin(pin, level) {
    this.mcu.gpio[pin].setInputValue(!!level);
  }

  // MicroPython's GC heap read straight from RAM. The heap area's descriptor (alloc table start,
  // its length, finaliser table, pool start, pool end) is found once by its shape.
  findHeap() {
    const v = this.mcu.sramView;
    const ram = 0x20000000;
    const top = ram + this.mcu.sram.length;
    for (let off = 0; off < this.mcu.sram.length - 24; off += 4) {
      const atb = v.getUint32(off, true);
      if (atb < ram || atb >= top) continue;
      const len = v.getUint32(off + 4, true);
      if (len < 256 || len > 16384) continue;
      for (let k = 2; k <= 3; k++) {
        const ps = v.getUint32(off + 4 * k, true);
        const pe = v.getUint32(off + 4 * k + 4, true);
        if (ps > atb && pe > ps && pe <= top && pe - ps === len * 4 * 16) {
          this.heapArea = { atb, len, ps, pe };
          return this.heapArea;
        }
      }
    }
    return null;
  }

  heap() {
    const h = this.heapArea ?? this.findHeap();
    if (!h) return null;
    const ram = this.mcu.sram;
    const base = h.atb - 0x20000000;
    let free = 0, run = 0, largest = 0;
    const runs = []; // free runs of 1 KB or more: [offset in the heap, bytes]
    for (let i = 0; i < h.len; i++) {
      const byte = ram[base + i];
      for (let s = 0; s < 8; s += 2) {
        if (((byte >> s) & 3) === 0) {
          free++;
          if (++run > largest) largest = run;
        } else {
          if (run >= 64) runs.push([(i * 4 + s / 2 - run) * 16, run * 16]);
          run = 0;
        }
      }
    }
    if (run >= 64) runs.push([(h.len * 4 - run) * 16, run * 16]);
    return { free: free * 16, largest: largest * 16, total: h.len * 4 * 16, runs };
  }

  // Every allocated block of the heap: [offset in the heap, bytes, its first word] (an object's
  // first word is its type's address; raw data, such as bytecode, has none).
  objects() {
    const h = this.heapArea ?? this.findHeap();
    if (!h) return null;
    const ram = this.mcu.sram;
    const v = this.mcu.sramView;
    const base = h.atb - 0x20000000;
    const out = [];
    let cur = null;
    for (let b = 0; b < h.len * 4; b++) {
      const kind = (ram[base + (b >> 2)] >> ((b & 3) * 2)) & 3;
      if (kind === 2 && cur) {
        cur[1] += 16;
        continue;
      }
      cur = null;
      if (kind === 1 || kind === 3) {
        cur = [b * 16, 16, v.getUint32(h.ps - 0x20000000 + b * 16, true)];
        out.push(cur);
      }
    }
    return out;
  }
}
