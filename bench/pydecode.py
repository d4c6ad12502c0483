# pydecode.py decodes paletted PNG files with a decoder of its own, written
# from the PNG specification and sharing nothing with Go's: it checks every
# chunk's CRC, inflates, undoes all five filters, unpacks the bit depth and
# maps the palette (and tRNS), then prints each file's size and the sha256
# of its RGBA pixels. identity.sh runs it on pictures of both versions.
#
#	python3 bench/pydecode.py FILE.png ...
import sys, zlib, struct, hashlib
def decode(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    i, idat, plte, trns = 8, b'', None, b''
    while i < len(d):
        n, = struct.unpack('>I', d[i:i+4]); t = d[i+4:i+8]; body = d[i+8:i+8+n]
        crc, = struct.unpack('>I', d[i+8+n:i+12+n])
        assert zlib.crc32(t + body) & 0xffffffff == crc, 'bad crc'
        if t == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif t == b'PLTE': plte = body
        elif t == b'tRNS': trns = body
        elif t == b'IDAT': idat += body
        i += 12 + n
    assert ctype == 3
    raw = zlib.decompress(idat)
    stride = (w * depth + 7) // 8
    prev = bytearray(stride); out = []
    for y in range(h):
        f = raw[y*(stride+1)]; row = bytearray(raw[y*(stride+1)+1:(y+1)*(stride+1)])
        for x in range(stride):
            a = row[x-1] if x >= 1 else 0; b = prev[x]; c = prev[x-1] if x >= 1 else 0
            if f == 1: row[x] = (row[x] + a) & 255
            elif f == 2: row[x] = (row[x] + b) & 255
            elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = row
        px = bytearray()
        for x in range(w):
            bit = x * depth
            v = (row[bit // 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
            alpha = trns[v] if v < len(trns) else 255
            px += plte[3*v:3*v+3] + bytes([alpha])
        out.append(bytes(px))
    return w, h, hashlib.sha256(b''.join(out)).hexdigest()
for p in sys.argv[1:]:
    print(p, *decode(p))
