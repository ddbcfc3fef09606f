"""Draws tessellator test cases (fixed seed), runs the reference driver
(./refdrv) on them and writes the digest file (argv[1]) and the full-output
file (argv[2]). See README.md."""
import random, struct, subprocess, sys
random.seed(20261124)
def h(f): return '%08x' % struct.unpack('<I', struct.pack('<f', f))[0]
special = ['7fc00000','00000000','80000000','bf800000','7f800000','00000001','3f800080','3f800001','40400001','403fffff','42800000','42fc0000','427c0000','427c0001']
vals = [0.3,1.0,1.0001,1.25,1.5,1.99,2.0,2.01,2.5,3.0,3.2,3.5,3.99,4.0,4.5,5.0,5.5,6.0,6.75,7.0,7.9,8.0,9.3,10.0,12.5,15.0,16.0,17.7,21.0,24.5,31.0,32.0,32.5,33.0,40.1,47.0,50.5,59.9,63.0,63.5,64.0,70.0]
def rv():
    r = random.random()
    if r < 0.08: return random.choice(special)
    if r < 0.6: return h(random.choice(vals))
    if r < 0.85: return h(random.uniform(0.5, 16))
    return h(random.uniform(0.5, 66))
cases = []
for dom in ['tri','quad','iso']:
    for part in range(4):
        outs = [0,1] if dom=='iso' else [0,2,3]
        for out in outs:
            n = {'tri':260,'quad':260,'iso':80}[dom]
            for k in range(n):
                if random.random() < 0.3:
                    v = rv(); e = [v]*4; i = [v, v]
                else:
                    e = [rv() for _ in range(4)]; i = [rv(), rv()]
                cases.append((dom,part,out,e,i))
# factors within a few 2^-16 of a whole number, where points nearly meet
def near(): return h(random.randint(1, 64) + random.randint(0, 3) * 2**-16)
for dom in ['tri','quad','iso']:
    for part in range(4):
        for k in range(50):
            cases.append((dom, part, 2, [near() for _ in range(4)], [near(), near()]))
# exhaustive small whole/fractional grid for uniform factors
for dom in ['tri','quad']:
    for part in range(4):
        for f in [1,1.5,2,2.5,3,3.5,4,5,6,7,8,9,10,15.5,16,17,31,32,33,63,64]:
            cases.append((dom,part,2,[h(f)]*4,[h(f)]*2))
# line output on tri and quad patches, triangle output on isolines
for dom, outs in [('tri', [1]), ('quad', [1]), ('iso', [2, 3])]:
    for part in range(4):
        for out in outs:
            for k in range(20):
                cases.append((dom, part, out, [rv() for _ in range(4)], [rv(), rv()]))
inp = ''.join('%s %d %d %s %s %s %s %s %s\n' % (d,p,o,*e,*i) for d,p,o,e,i in cases)
out = subprocess.run(['./refdrv'], input=inp, capture_output=True, text=True, check=True).stdout.splitlines()
assert len(out) == len(cases)
def fnv(words):
    x = 0xcbf29ce484222325
    for w in words:
        for b in struct.pack('<I', w):
            x ^= b; x = (x * 0x100000001b3) & 0xffffffffffffffff
    return x
dig = open(sys.argv[1],'w'); full = open(sys.argv[2],'w')
dig.write('# domain partitioning output edge0..3 inside0..1 (f32 bits) | points indices fnv1a64\n')
full.write('# domain partitioning output edge0..3 inside0..1 (f32 bits) | points indices | u:v (f32 bits)... | indices...\n')
nfull = 0
for (d,p,o,e,i), line in zip(cases, out):
    head, idx = line.split('|')
    parts = head.split()
    np_, ni = int(parts[0]), int(parts[1])
    pts = parts[2:]
    words = [np_, ni]
    for s in pts:
        a, b = s.split(':'); words += [int(a,16), int(b,16)]
    ids = [int(x) for x in idx.split()]
    words += ids
    key = '%s %d %d %s %s %s %s %s %s' % (d,p,o,*e,*i)
    dig.write('%s | %d %d %016x\n' % (key, np_, ni, fnv(words)))
    if np_ <= 40 and nfull < 60 and random.random() < 0.5:
        nfull += 1
        full.write('%s | %d %d | %s | %s\n' % (key, np_, ni, ' '.join(pts), ' '.join(map(str, ids))))
print(len(cases), nfull)
