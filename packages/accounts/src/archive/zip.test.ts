// The store-only ZIP writer: what it writes, Info-ZIP's unzip tests clean, and its own reader gives back.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readZip, ZipWriter } from "./zip.ts";

function zipOf(files: [string, string][], modified: Date): Buffer {
  const writer = new ZipWriter(modified);
  const chunks = files.map(([name, text]) => writer.file(name, Buffer.from(text, "utf8")));
  return Buffer.concat([...chunks, writer.end()]);
}

describe("ZipWriter", () => {
  const files: [string, string][] = [
    ["manifest.json", '{"files":2}'],
    ["računi/2026-1 Šime.xml", "<Invoice>čćžšđ</Invoice>"],
  ];
  const modified = new Date("2026-11-26T14:30:08Z");

  it("writes a ZIP whose every entry unzip tests clean (CRC-32 and sizes)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "zip-test-"));
    const file = path.join(dir, "a.zip");
    writeFileSync(file, zipOf(files, modified));
    const tested = execFileSync("unzip", ["-t", file], { encoding: "utf8" });
    expect(tested).toContain("No errors detected in compressed data");
    expect(tested.match(/ OK$/gm)).toHaveLength(files.length);
  });

  it("gives the same flags, time, CRC, sizes and name length in a file's local header and its central record", () => {
    const zip = zipOf(files, modified);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const local = 0;
    // The shared run: from offset 6 of the local header, from offset 8 of the central record, 22 bytes.
    expect(zip.subarray(local + 6, local + 28)).toEqual(zip.subarray(central + 8, central + 30));
    expect(zip.readUInt16LE(local + 6)).toBe(0x0800);
    expect(zip.readUInt16LE(local + 8)).toBe(0);
    expect(zip.readUInt16LE(local + 10)).toBe((14 << 11) | (30 << 5) | 4);
    expect(zip.readUInt16LE(local + 12)).toBe(((2026 - 1980) << 9) | (11 << 5) | 26);
    expect(zip.readUInt32LE(local + 14)).toBe(crc32(Buffer.from(files[0]![1])));
    expect(zip.readUInt32LE(local + 18)).toBe(Buffer.byteLength(files[0]![1]));
    expect(zip.readUInt32LE(local + 22)).toBe(Buffer.byteLength(files[0]![1]));
    expect(zip.readUInt16LE(local + 26)).toBe("manifest.json".length);
  });

  it("reads back what it wrote", () => {
    const read = readZip(zipOf(files, modified));
    expect(read.map((f) => [f.name, f.content.toString("utf8")])).toEqual(files);
    expect(read.map((f) => f.crc)).toEqual(files.map(([, text]) => crc32(Buffer.from(text))));
  });
});
