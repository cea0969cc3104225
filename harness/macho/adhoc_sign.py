#!/usr/bin/env python3
"""Ad-hoc code-sign a thin 64-bit Mach-O executable in place (stdlib only).

Equivalent of `codesign --force --sign - FILE`: replaces any existing signature with an
ad-hoc one (SHA-256 CodeDirectory v0x20400, empty requirement set, empty CMS wrapper),
the same layout Apple's codesign and rcodesign produce. No entitlements, no hardened runtime.
usage: adhoc_sign.py FILE [IDENTIFIER]
"""
import hashlib
import os
import struct
import sys

LC_SEGMENT_64 = 0x19
LC_CODE_SIGNATURE = 0x1D
MH_EXECUTE = 2
PAGE_SHIFT = 12  # 4 KiB code pages (what codesign uses for macOS binaries)
PAGE = 1 << PAGE_SHIFT
CPU_TYPE_ARM64 = 0x0100000C


def align(n, a):
    return (n + a - 1) // a * a


def sign(path, ident):
    with open(path, "rb") as f:
        buf = bytearray(f.read())
    magic, cputype, _sub, filetype, ncmds, sizeofcmds = struct.unpack_from("<IiiIII", buf, 0)
    if magic != 0xFEEDFACF:
        raise SystemExit("%s: only thin little-endian 64-bit Mach-O is supported (magic %#x)" % (path, magic))
    off, segs, cs_off, first_data = 32, {}, None, len(buf)
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", buf, off)
        if cmd == LC_SEGMENT_64:
            name = bytes(buf[off + 8:off + 24]).rstrip(b"\0").decode()
            segs[name] = off
            nsects = struct.unpack_from("<I", buf, off + 64)[0]
            for s in range(nsects):
                so = off + 72 + 80 * s
                sec_off = struct.unpack_from("<I", buf, so + 48)[0]
                sec_flags = struct.unpack_from("<I", buf, so + 64)[0]
                if sec_off and (sec_flags & 0xFF) not in (0x1, 0xC, 0x12):  # skip zerofill kinds
                    first_data = min(first_data, sec_off)
        elif cmd == LC_CODE_SIGNATURE:
            cs_off = off
        off += cmdsize
    cmds_end = off
    if "__LINKEDIT" not in segs or "__TEXT" not in segs:
        raise SystemExit("%s: missing __TEXT or __LINKEDIT" % path)
    le = segs["__LINKEDIT"]
    le_vmsize, le_fileoff, le_filesize = struct.unpack_from("<QQQ", buf, le + 32)
    if cs_off is not None:  # drop the old signature; it must be the last thing in the file
        dataoff, datasize = struct.unpack_from("<II", buf, cs_off + 8)
        if dataoff + datasize < len(buf) - 16 or le_fileoff + le_filesize < dataoff + datasize:
            raise SystemExit("%s: existing signature is not at the end of __LINKEDIT / file" % path)
        del buf[dataoff:]
        le_filesize = dataoff - le_fileoff
    else:
        if cmds_end + 16 > first_data:
            raise SystemExit("%s: no room in the header for LC_CODE_SIGNATURE" % path)
        cs_off = cmds_end
        struct.pack_into("<II", buf, cs_off, LC_CODE_SIGNATURE, 16)
        struct.pack_into("<II", buf, 16, ncmds + 1, sizeofcmds + 16)
    if le_fileoff + le_filesize != len(buf):
        raise SystemExit("%s: data after __LINKEDIT (%d != %d)" % (path, le_fileoff + le_filesize, len(buf)))

    code_limit = align(len(buf), 16)  # the signature must start 16-byte aligned (dyld enforces it)
    buf.extend(b"\0" * (code_limit - len(buf)))
    n_pages = (code_limit + PAGE - 1) // PAGE
    ident_b = ident.encode() + b"\0"
    n_special = 2  # -1 Info.plist (none), -2 requirements
    cd_header = 88  # CodeDirectory v0x20400 header size
    hash_offset = cd_header + len(ident_b) + n_special * 32
    cd_len = hash_offset + n_pages * 32
    requirements = struct.pack(">III", 0xFADE0C01, 12, 0)  # empty requirement set
    cms = struct.pack(">II", 0xFADE0B01, 8)  # empty CMS wrapper (ad-hoc)
    n_blobs = 3
    sb_header = 12 + 8 * n_blobs
    sb_len = sb_header + cd_len + len(requirements) + len(cms)
    datasize = align(sb_len, 16)

    # patch load commands first: page 0 (the header) is covered by the hashes
    struct.pack_into("<II", buf, cs_off + 8, code_limit, datasize)
    le_filesize = code_limit + datasize - le_fileoff
    page = 16384 if cputype == CPU_TYPE_ARM64 else 4096
    le_vmsize = max(le_vmsize, align(le_filesize, page))
    struct.pack_into("<QQQ", buf, le + 32, le_vmsize, le_fileoff, le_filesize)

    text = segs["__TEXT"]
    text_fileoff, text_filesize = struct.unpack_from("<QQ", buf, text + 40)
    exec_flags = 1 if filetype == MH_EXECUTE else 0  # CS_EXECSEG_MAIN_BINARY
    cd = bytearray(struct.pack(
        ">IIIIIIIIIBBBBIIIIQQQQ",
        0xFADE0C02, cd_len, 0x20400, 0x2,  # magic, length, version, flags=CS_ADHOC
        hash_offset, cd_header, n_special, n_pages, code_limit,
        32, 2, 0, PAGE_SHIFT, 0,  # hashSize, hashType=SHA256, platform, pageSize, spare2
        0, 0, 0,  # scatterOffset, teamOffset, spare3
        0,  # codeLimit64
        text_fileoff, text_filesize, exec_flags))
    assert len(cd) == cd_header
    cd += ident_b
    cd += hashlib.sha256(requirements).digest()  # slot -2
    cd += b"\0" * 32  # slot -1 (Info.plist): none
    mv = memoryview(buf)
    for i in range(n_pages):
        cd += hashlib.sha256(mv[i * PAGE:min((i + 1) * PAGE, code_limit)]).digest()
    assert len(cd) == cd_len

    sb = bytearray(struct.pack(">III", 0xFADE0CC0, sb_len, n_blobs))
    o = sb_header
    for typ, blob in ((0, cd), (2, requirements), (0x10000, cms)):
        sb += struct.pack(">II", typ, o)
        o += len(blob)
    sb += cd + requirements + cms
    sb += b"\0" * (datasize - len(sb))
    del mv
    buf += sb
    tmp = path + ".signing"
    with open(tmp, "wb") as f:
        f.write(buf)
    os.chmod(tmp, os.stat(path).st_mode)
    os.replace(tmp, path)
    print("%s: ad-hoc signed, identifier %r, %d pages, cdhash %s"
          % (path, ident, n_pages, hashlib.sha256(cd).hexdigest()[:40]))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: adhoc_sign.py FILE [IDENTIFIER]")
    p = sys.argv[1]
    sign(p, sys.argv[2] if len(sys.argv) == 3 else os.path.basename(p))
