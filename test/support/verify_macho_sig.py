#!/usr/bin/env python3
"""Verify the embedded code signature of a Mach-O file (thin or fat), stdlib only.

Checks what the macOS kernel / `codesign --verify` check for an ad-hoc signature:
  * LC_CODE_SIGNATURE present, inside the file and at the end of __LINKEDIT
  * SuperBlob / CodeDirectory structure
  * codeLimit == signature offset, nCodeSlots == ceil(codeLimit / pageSize)
  * every page hash == hash(file[page] truncated at codeLimit)
  * special-slot hashes (requirements, entitlements, DER entitlements) match the blobs
  * execSeg base/limit match __TEXT
  * signature offset 16-byte aligned (dyld's "mis-aligned code signature" check)
It does NOT validate a CMS (certificate) signature; for ad-hoc signatures there is none.
Exit status: 0 = valid, 1 = invalid / unsigned, 2 = usage / parse error.
"""
import hashlib
import struct
import sys

CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSMAGIC_REQUIREMENTS = 0xFADE0C01
CSMAGIC_BLOBWRAPPER = 0xFADE0B01
CSSLOT_CODEDIRECTORY = 0
CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000
CSSLOT_SIGNATURESLOT = 0x10000
HASHES = {1: ("sha1", 20), 2: ("sha256", 32), 3: ("sha256", 20), 4: ("sha384", 48)}
SPECIAL_NAMES = {1: "Info.plist", 2: "Requirements", 3: "CodeResources", 4: "Application",
                 5: "Entitlements", 6: "RepSpecific", 7: "DER-Entitlements"}
LC_SEGMENT_64 = 0x19
LC_CODE_SIGNATURE = 0x1D
CS_ADHOC = 0x2
CS_LINKER_SIGNED = 0x20000


class Result:
    def __init__(self, label):
        self.label, self.errors, self.warnings, self.info = label, [], [], []

    def err(self, m):
        self.errors.append(m)

    def warn(self, m):
        self.warnings.append(m)


def parse_slice(data, base, size, label):
    r = Result(label)
    magic = struct.unpack_from("<I", data, base)[0]
    if magic != 0xFEEDFACF:
        r.err("not a little-endian 64-bit Mach-O slice (magic %#x)" % magic)
        return r
    cputype, _sub, _ft, ncmds, sizeofcmds = struct.unpack_from("<iiIII", data, base + 4)
    off = base + 32
    segs, cs_cmd, cs_index, idx = {}, None, None, 0
    for idx in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, off)
        if cmd == LC_SEGMENT_64:
            name = data[off + 8:off + 24].rstrip(b"\0").decode()
            vmaddr, vmsize, fileoff, filesize = struct.unpack_from("<QQQQ", data, off + 24)
            segs[name] = (fileoff, filesize)
        elif cmd == LC_CODE_SIGNATURE:
            cs_cmd = struct.unpack_from("<II", data, off + 8)
            cs_index = idx
        off += cmdsize
    if cs_cmd is None:
        r.err("no LC_CODE_SIGNATURE load command: binary is unsigned")
        return r
    if cs_index != ncmds - 1:
        r.warn("LC_CODE_SIGNATURE is not the last load command")
    dataoff, datasize = cs_cmd
    r.info.append("signature at %d (+%d bytes) in a %d-byte slice" % (dataoff, datasize, size))
    if dataoff + datasize > size:
        r.err("signature extends past end of slice")
        return r
    if dataoff % 16:
        r.err("signature offset %d is not 16-byte aligned: dyld refuses such binaries "
              "('mis-aligned code signature') when they target macOS >= 10.15" % dataoff)
    le = segs.get("__LINKEDIT")
    if le is None:
        r.err("no __LINKEDIT segment")
    elif le[0] + le[1] < dataoff + datasize:
        r.err("signature is not contained in __LINKEDIT")
    elif le[0] + le[1] != dataoff + datasize and le[0] + le[1] > dataoff + datasize + 16:
        r.warn("__LINKEDIT extends %d bytes past the signature" % (le[0] + le[1] - dataoff - datasize))
    if base + size > len(data):
        r.err("slice truncated")
        return r
    sig = data[base + dataoff: base + dataoff + datasize]
    smagic, slen, count = struct.unpack_from(">III", sig, 0)
    if smagic != CSMAGIC_EMBEDDED_SIGNATURE:
        r.err("bad SuperBlob magic %#x" % smagic)
        return r
    if slen > datasize:
        r.err("SuperBlob length exceeds LC_CODE_SIGNATURE datasize")
        return r
    blobs = {}
    for i in range(count):
        typ, boff = struct.unpack_from(">II", sig, 12 + 8 * i)
        bmagic, blen = struct.unpack_from(">II", sig, boff)
        if boff + blen > slen:
            r.err("blob %#x extends past SuperBlob" % typ)
            return r
        blobs[typ] = sig[boff:boff + blen]
    cds = [(t, b) for t, b in sorted(blobs.items())
           if t == CSSLOT_CODEDIRECTORY or CSSLOT_ALTERNATE_CODEDIRECTORIES <= t < CSSLOT_ALTERNATE_CODEDIRECTORIES + 5]
    if not cds:
        r.err("no CodeDirectory")
        return r
    slice_bytes = memoryview(data)[base: base + size]
    text = segs.get("__TEXT")
    for typ, cd in cds:
        (magic, length, version, flags, hashOffset, identOffset, nSpecialSlots, nCodeSlots,
         codeLimit, hashSize, hashType, _platform, pageSizeLog2) = struct.unpack_from(">IIIIIIIIIBBBB", cd, 0)
        if magic != CSMAGIC_CODEDIRECTORY:
            r.err("slot %#x: bad CodeDirectory magic" % typ)
            continue
        if version >= 0x20300 and codeLimit == 0 and len(cd) >= 64:
            codeLimit = struct.unpack_from(">Q", cd, 56)[0]
        if hashType not in HASHES:
            r.err("unknown hash type %d" % hashType)
            continue
        hname, hsize = HASHES[hashType]
        if hsize != hashSize:
            r.err("hashSize %d does not match hash type %s" % (hashSize, hname))
            continue
        ident = cd[identOffset:cd.index(b"\0", identOffset)].decode(errors="replace")
        if not ident:
            r.warn("empty identifier in CodeDirectory")
        psize = 1 << pageSizeLog2 if pageSizeLog2 else 0
        cdhash = hashlib.new(hname, cd).hexdigest()[:40]
        fl = []
        if flags & CS_ADHOC:
            fl.append("adhoc")
        if flags & CS_LINKER_SIGNED:
            fl.append("linker-signed")
        if flags & 0x10000:
            fl.append("runtime")
        r.info.append("CodeDirectory slot=%#x v=%#x flags=%#x(%s) id=%r hash=%s page=%d codeLimit=%d "
                      "pages=%d special=%d cdhash=%s"
                      % (typ, version, flags, ",".join(fl), ident, hname, psize, codeLimit, nCodeSlots,
                         nSpecialSlots, cdhash))
        if codeLimit != dataoff:
            r.err("%s CD: codeLimit %d != signature offset %d" % (hname, codeLimit, dataoff))
        exp_slots = (codeLimit + psize - 1) // psize if psize else 1
        if nCodeSlots != exp_slots:
            r.err("%s CD: nCodeSlots %d != expected %d" % (hname, nCodeSlots, exp_slots))
        bad = []
        for i in range(min(nCodeSlots, exp_slots)):
            start = i * psize if psize else 0
            end = min(start + psize, codeLimit) if psize else codeLimit
            want = cd[hashOffset + i * hashSize: hashOffset + (i + 1) * hashSize]
            got = hashlib.new(hname, slice_bytes[start:end]).digest()[:hashSize]
            if want != got:
                bad.append(i)
        if bad:
            r.err("%s CD: %d of %d page hashes do not match (first bad page %d, file offset %d)"
                  % (hname, len(bad), nCodeSlots, bad[0], bad[0] * psize))
        for s in range(1, nSpecialSlots + 1):
            want = cd[hashOffset - s * hashSize: hashOffset - (s - 1) * hashSize]
            blob = blobs.get(s)
            name = SPECIAL_NAMES.get(s, str(s))
            if blob is not None:
                if hashlib.new(hname, blob).digest()[:hashSize] != want:
                    r.err("%s CD: special slot %s hash mismatch" % (hname, name))
            elif want != b"\0" * hashSize:
                if s in (1, 3):
                    r.warn("%s CD: bound to external %s (not checkable for a bare file)" % (hname, name))
                else:
                    r.err("%s CD: special slot %s has a hash but no blob" % (hname, name))
        for s, blob in blobs.items():
            if 1 <= s <= 7 and s > nSpecialSlots:
                r.err("%s CD: blob %s present but not covered by a special slot" % (hname, SPECIAL_NAMES[s]))
        if version >= 0x20400 and len(cd) >= 88 and text is not None:
            execBase, execLimit, _execFlags = struct.unpack_from(">QQQ", cd, 64)
            if (execBase, execLimit) != (text[0], text[1]):
                r.warn("%s CD: execSeg base/limit %d/%d != __TEXT %d/%d"
                       % (hname, execBase, execLimit, text[0], text[1]))
    cms = blobs.get(CSSLOT_SIGNATURESLOT)
    adhoc = all(struct.unpack_from(">I", cd, 12)[0] & CS_ADHOC for _, cd in cds)
    if cms is not None and len(cms) > 8:
        r.info.append("CMS signature blob present (%d bytes) - certificate chain NOT verified here" % len(cms))
        if adhoc:
            r.warn("adhoc flag set but CMS blob is non-empty")
    elif not adhoc:
        r.err("not ad-hoc but no CMS signature")
    else:
        r.info.append("ad-hoc signature (no CMS)")
    return r


def verify(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from(">I", data, 0)[0]
    results = []
    if magic in (0xCAFEBABE, 0xCAFEBABF):
        nfat = struct.unpack_from(">I", data, 4)[0]
        for i in range(nfat):
            if magic == 0xCAFEBABE:
                cpu, _s, off, size, _a = struct.unpack_from(">iiIII", data, 8 + 20 * i)
            else:
                cpu, _s, off, size, _a, _r = struct.unpack_from(">iiQQII", data, 8 + 32 * i)
            results.append(parse_slice(data, off, size, "slice %d (cputype %#x)" % (i, cpu)))
    else:
        results.append(parse_slice(data, 0, len(data), "thin"))
    return results


def main(argv):
    if len(argv) < 2:
        print("usage: verify_macho_sig.py FILE...", file=sys.stderr)
        return 2
    status = 0
    for path in argv[1:]:
        try:
            results = verify(path)
        except Exception as e:  # malformed file
            print("%s: parse error: %s" % (path, e))
            status = max(status, 2)
            continue
        ok = all(not r.errors for r in results)
        for r in results:
            for m in r.info:
                print("%s [%s]: %s" % (path, r.label, m))
            for m in r.warnings:
                print("%s [%s]: warning: %s" % (path, r.label, m))
            for m in r.errors:
                print("%s [%s]: ERROR: %s" % (path, r.label, m))
        print("%s: %s" % (path, "valid signature" if ok else "INVALID signature"))
        if not ok:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
