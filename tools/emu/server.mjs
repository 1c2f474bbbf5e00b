// The emulated Pico as a process: `node server.mjs CONFIG.json`, then one JSON command per line on
// stdin, one JSON reply per line on stdout. tools/emu/pico.py is the Python side.
//
// CONFIG: {bootrom, firmware (UF2 path), fs (littlefs image path or null) and fs_offset (where the
//          firmware keeps its filesystem), flash_image (a whole flash, after a power cut), fixes,
//          pullUps, spi}
// Commands (every reply carries "ns", the emulated clock):
//   {"op":"run","ms":M}                          run M emulated ms
//   {"op":"pin","pin":P,"level":0|1}             drive an input pin
//   {"op":"quiet","ms":Q,"max_ms":M,"first":B}   run until no SPI pixel byte for Q ms (or M ms);
//                                                with first, only after at least one pixel
//   {"op":"until_text","text":T,"max_ms":M}      run until T appears on the USB serial output
//   {"op":"serial"}                              the serial output since the last call
//   {"op":"write","text":T}                      bytes to the device's USB serial input
//   {"op":"frame","path":F,"madctl":..,"w":..,"h":..,"xoff":..,"yoff":..}  RGB565 LE into F
//   {"op":"heap"}                                GC heap: free, largest free block, total, free runs
//   {"op":"objects"}                             GC heap: every allocated block [offset, bytes, first word]
//   {"op":"flash","path":F,"offset":O,"size":S}  a copy of the flash
//   {"op":"stats"}                               SPI bytes, pixel bytes, last pixel ns, flash writes
//   {"op":"exit"}

import fs from "fs";
import readline from "readline";
import { Pico } from "./machine.mjs";

const UF2_MAGIC = [0x0a324655, 0x9e5d5157, 0x0ab16f30];

export function unpackUf2(data, flash) {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let blocks = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    if (v.getUint32(off, true) !== UF2_MAGIC[0] || v.getUint32(off + 4, true) !== UF2_MAGIC[1]) continue;
    if (v.getUint32(off + 508, true) !== UF2_MAGIC[2]) continue;
    const addr = v.getUint32(off + 12, true);
    const size = v.getUint32(off + 16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr - 0x10000000);
    blocks++;
  }
  if (!blocks) throw new Error("not a UF2 file");
}

function makeFlash(cfg) {
  const flash = new Uint8Array(2 * 1024 * 1024).fill(0xff);
  unpackUf2(fs.readFileSync(cfg.firmware), flash);
  if (cfg.flash_image) flash.set(fs.readFileSync(cfg.flash_image).subarray(0, flash.length));
  if (cfg.fs) flash.set(fs.readFileSync(cfg.fs), cfg.fs_offset);
  return flash;
}

function bootrom(path) {
  const b = fs.readFileSync(path);
  return new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

const cfg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const pico = new Pico({
  bootrom: bootrom(cfg.bootrom),
  flash: makeFlash(cfg),
  fixes: cfg.fixes,
  pullUps: cfg.pullUps,
  spi: cfg.spi,
});
const MS = 1e6;
let serial = "";

function pump() {
  serial += pico.serialText();
}

function handle(c) {
  const out = {};
  switch (c.op) {
    case "run":
      pico.runUntil(pico.nanos + c.ms * MS);
      break;
    case "pin":
      pico.setPin(c.pin, c.level);
      break;
    case "quiet": {
      const end = pico.nanos + (c.max_ms ?? 60000) * MS;
      const q = c.ms * MS;
      const since = pico.nanos;
      // with "first": wait for a pixel before counting the quiet time (a boot's first frame)
      const stop = () => (!c.first || pico.panel.lastPixelNs > since) &&
        pico.nanos - Math.max(pico.panel.lastPixelNs, since) >= q;
      out.quiet = pico.runUntil(end, stop);
      break;
    }
    case "until_text": {
      const end = pico.nanos + (c.max_ms ?? 60000) * MS;
      out.found = pico.runUntil(end, () => {
        pump();
        return serial.includes(c.text);
      });
      break;
    }
    case "serial":
      pump();
      out.text = serial;
      serial = "";
      break;
    case "write":
      pico.serialWrite(Buffer.from(c.text, "latin1"));
      break;
    case "frame": {
      const px = pico.panel.window(c.madctl, c.w, c.h, c.xoff, c.yoff);
      fs.writeFileSync(c.path, Buffer.from(px.buffer));
      out.inverted = pico.panel.inverted;
      out.on = pico.panel.on;
      out.sleeping = pico.panel.sleeping;
      break;
    }
    case "heap":
      out.heap = pico.heap();
      break;
    case "objects":
      out.objects = pico.objects();
      break;
    case "flash":
      fs.writeFileSync(c.path, pico.mcu.flash.subarray(c.offset, c.offset + c.size));
      break;
    case "stats":
      out.spi_bytes = pico.spiBytes;
      out.pixel_bytes = pico.panel.pixelBytes;
      out.last_pixel_ns = pico.panel.lastPixelNs;
      out.flash_writes = pico.nor.writes;
      out.xip_misses = pico.xipMisses;
      break;
    case "exit":
      process.exit(0);
      break;
    default:
      throw new Error("unknown op " + c.op);
  }
  pump();
  out.ns = pico.nanos;
  return out;
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  let reply;
  try {
    reply = handle(JSON.parse(line));
  } catch (e) {
    reply = { error: String(e && e.stack ? e.stack : e) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
