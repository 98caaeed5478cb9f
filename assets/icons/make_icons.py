#!/usr/bin/env python3
"""Draw the built-in entity icons (128x128 RGBA PNG) with the Python standard library only.

Each icon is a list of filled shapes painted back to front; every pixel is sampled 4x4 times
and averaged, which gives clean anti-aliased edges. Run from this directory:

    python3 make_icons.py

and commit the PNGs it writes (processor, router, switch, network).
"""
import math
import os
import struct
import zlib

SIZE = 128
SUB = 4


def rounded_box(cx, cy, hw, hh, r):
    def inside(x, y):
        dx = max(abs(x - cx) - (hw - r), 0.0)
        dy = max(abs(y - cy) - (hh - r), 0.0)
        return dx * dx + dy * dy <= r * r and abs(x - cx) <= hw and abs(y - cy) <= hh
    return inside


def circle(cx, cy, r):
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def ring(cx, cy, r_out, r_in):
    return lambda x, y: r_in * r_in <= (x - cx) ** 2 + (y - cy) ** 2 <= r_out * r_out


def capsule(ax, ay, bx, by, r):
    def inside(x, y):
        px, py, vx, vy = x - ax, y - ay, bx - ax, by - ay
        t = max(0.0, min(1.0, (px * vx + py * vy) / (vx * vx + vy * vy)))
        dx, dy = px - t * vx, py - t * vy
        return dx * dx + dy * dy <= r * r
    return inside


def polygon(points):
    def inside(x, y):
        result = False
        j = len(points) - 1
        for i, (xi, yi) in enumerate(points):
            xj, yj = points[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                result = not result
            j = i
        return result
    return inside


def arrow(ax, ay, bx, by, width, head):
    """A shaft from a to b with a triangular head at b."""
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    base_x, base_y = bx - ux * head, by - uy * head
    shaft = capsule(ax, ay, base_x, base_y, width / 2)
    tip = polygon([(bx, by), (base_x + nx * head * 0.75, base_y + ny * head * 0.75),
                   (base_x - nx * head * 0.75, base_y - ny * head * 0.75)])
    return lambda x, y: shaft(x, y) or tip(x, y)


def hexrgba(text, alpha=255):
    text = text.lstrip('#')
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4)) + (alpha,)


def render(layers):
    rows = []
    for py in range(SIZE):
        row = bytearray()
        for px in range(SIZE):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(SUB):
                for sx in range(SUB):
                    x = px + (sx + 0.5) / SUB
                    y = py + (sy + 0.5) / SUB
                    r = g = b = a = 0.0
                    for inside, (cr, cg, cb, ca) in layers:
                        if inside(x, y):
                            sa = ca / 255.0
                            r = cr * sa + r * (1 - sa)
                            g = cg * sa + g * (1 - sa)
                            b = cb * sa + b * (1 - sa)
                            a = sa + a * (1 - sa)
                    acc[0] += r
                    acc[1] += g
                    acc[2] += b
                    acc[3] += a
            n = SUB * SUB
            alpha = acc[3] / n
            if alpha > 0:
                # premultiplied sums -> straight colour
                row += bytes([min(255, round(acc[0] / n / alpha)), min(255, round(acc[1] / n / alpha)),
                              min(255, round(acc[2] / n / alpha)), round(alpha * 255)])
            else:
                row += bytes(4)
        rows.append(bytes(row))
    return rows


def write_png(path, rows):
    raw = b''.join(b'\x00' + r for r in rows)

    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)

    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', SIZE, SIZE, 8, 6, 0, 0, 0))
    png += chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
    with open(path, 'wb') as f:
        f.write(png)


def processor(body='3d7fd1', edge='1f3f6b', core='9cc4f2'):
    blue, dark, light, pin = hexrgba(body), hexrgba(edge), hexrgba(core), hexrgba('b9c3cf')
    layers = []
    for i in range(4):
        t = 38 + i * 17.3
        layers += [(capsule(t, 14, t, 30, 3.2), pin), (capsule(t, 98, t, 114, 3.2), pin),
                   (capsule(14, t, 30, t, 3.2), pin), (capsule(98, t, 114, t, 3.2), pin)]
    layers += [(rounded_box(64, 64, 40, 40, 9), dark), (rounded_box(64, 64, 37, 37, 7), blue),
               (rounded_box(64, 64, 20, 20, 4), dark), (rounded_box(64, 64, 17, 17, 3), light),
               (circle(38, 38, 3.5), light)]
    return layers


def router(body='2f9e74', edge='16523c'):
    green, dark, white = hexrgba(body), hexrgba(edge), hexrgba('f4fbf8')
    layers = [(circle(64, 64, 54), dark), (circle(64, 64, 50), green)]
    # Four arrows: two pointing in along one diagonal pair, two pointing out along the other axis.
    layers += [(arrow(64, 58, 64, 22, 9, 16), white), (arrow(64, 70, 64, 106, 9, 16), white),
               (arrow(26, 64, 54, 64, 9, 16), white), (arrow(102, 64, 74, 64, 9, 16), white)]
    return layers


def switch():
    teal, dark, white = hexrgba('2a8c9e'), hexrgba('14464f'), hexrgba('f2fafb')
    layers = [(rounded_box(64, 64, 56, 40, 10), dark), (rounded_box(64, 64, 52, 36, 8), teal)]
    layers += [(arrow(26, 50, 100, 50, 9, 16), white), (arrow(102, 78, 28, 78, 9, 16), white)]
    return layers


def network():
    purple, dark, light, line = hexrgba('8a63d2'), hexrgba('3f2a6b'), hexrgba('e9e0fb'), hexrgba('c9b6f0')
    pts = [(64 + 40 * math.cos(a), 64 + 40 * math.sin(a))
           for a in [-math.pi / 2 + k * 2 * math.pi / 6 for k in range(6)]]
    layers = [(circle(64, 64, 60), dark), (circle(64, 64, 56), purple)]
    for i, (x, y) in enumerate(pts):
        nx, ny = pts[(i + 1) % len(pts)]
        layers.append((capsule(x, y, nx, ny, 2.6), line))
        layers.append((capsule(x, y, 64, 64, 2.2), line))
    for x, y in pts:
        layers += [(circle(x, y, 9), dark), (circle(x, y, 7), light)]
    layers += [(circle(64, 64, 11), dark), (circle(64, 64, 9), light)]
    return layers


if __name__ == '__main__':
    for name, make in [('processor', processor), ('router', router), ('switch', switch), ('network', network)]:
        write_png(f'{name}.png', render(make()))
        print(f'wrote {name}.png')
    # State images: `<icon>/<STATE>.png` replaces the icon while an entity is in that state.
    states = [
        ('router', 'BUSY', lambda: router('e0852f', '7a3f0e')),
        ('router', 'BLOCKED', lambda: router('d93b3b', '6e1414')),
        ('processor', 'COMPUTE', lambda: processor('2f9e5a', '14502c', 'b6f0c8')),
        ('processor', 'ALLREDUCE', lambda: processor('d9622f', '6e2a0e', 'f6c3a8')),
    ]
    for icon, state, make in states:
        os.makedirs(icon, exist_ok=True)
        write_png(f'{icon}/{state}.png', render(make()))
        print(f'wrote {icon}/{state}.png')
