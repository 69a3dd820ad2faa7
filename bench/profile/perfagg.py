# Aggregate `perf script -F tid,ip,sym,dso` output (cpu-clock samples = on-CPU time only).
# usage: perf script ... | python3 perfagg.py <main_tid> <calls> <seconds_per_sample> [top]
import sys, re, collections
main_tid, calls, per_sample = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
top = int(sys.argv[4]) if len(sys.argv) > 4 else 40
samples = []
cur = None
for line in sys.stdin:
    line = line.rstrip('\n')
    if not line.strip():
        if cur: samples.append(cur); cur = None
        continue
    if not line.startswith('\t'):
        cur = (line.split()[0], [])
        continue
    m = re.match(r'\s*[0-9a-f]+ (.*) \((.*)\)$', line)
    if m and cur: cur[1].append((m.group(1), m.group(2)))
if cur: samples.append(cur)

GC_RE = re.compile(r'Heap::|Scavenger|MarkCompact|Sweeper|MinorMarkCompact|ConcurrentMarking|IncrementalMarking|GCTracer|MemoryAllocator|MarkingBarrier|WriteBarrier|Evacuat|ObjectVisitor|PagedSpace|SemiSpace|NewSpace::|Heap_|CppHeap|GlobalHandles::|MarkingWorklist|PointersUpdating|ScavengeJob|ArrayBufferSweeper')
COMPILE_RE = re.compile(r'compiler::|Compiler::|OptimizingCompile|Maglev|turboshaft|Turboshaft|BytecodeGenerator|Parser::|baseline::|Sparkplug|Deoptimiz|CodeGenerator|Assembler|Zone::|LazyCompile')
def js_group(s):
    m = re.match(r'JS:(.)(.*?) (\S+):(\d+):(\d+)$', s)
    if not m: return 'JS (no url)', s
    url = m.group(3)
    g = None
    mm = re.search(r'/dist/(gateway|executor|contract|store|trust|budget|effects|evidence|cli|adapters)/', url)
    if mm: g = 'src/' + mm.group(1) + '/*'
    elif 'node_modules/' in url:
        pkg = re.search(r'node_modules/(@[^/]+/[^/]+|[^/]+)/', url).group(1)
        if pkg == '@modelcontextprotocol/sdk':
            sub = re.search(r'dist/esm/(.*)$', url)
            pkg = '@mcp/sdk ' + (sub.group(1) if sub else url)
        g = pkg
    elif url.startswith('node:'): g = 'node:' + '/'.join(url[5:].split('/')[:2])
    else: g = url
    short = re.sub(r'.*/(dist|node_modules)/', r'\1/', url)
    return g, f"{m.group(2) or '(anon)'} {short}:{m.group(4)} [{m.group(1)}]"

def classify(frames):
    """(group, function) for self time: GC/compile/kernel/native detected from the stack; else nearest JS frame."""
    syms = [s for s, d in frames]
    if any(GC_RE.search(s) for s in syms): return 'GC', 'GC'
    if any(COMPILE_RE.search(s) for s in syms): return 'JIT compile/deopt', 'JIT'
    leaf, dso = frames[0] if frames else ('?', '?')
    kernel = 'kernel' in dso
    # nearest JS frame
    for s, d in frames:
        if s.startswith('JS:'):
            g, f = js_group(s)
            if kernel:
                return 'kernel (syscalls) under ' + g, f
            return g, f
    if kernel: return 'kernel (no JS on stack)', leaf
    if 'sqlite' in dso or 'better_sqlite3' in dso: return 'better-sqlite3 native', leaf
    return 'native (no JS on stack): ' + dso.split('/')[-1], leaf

self_g = collections.Counter(); self_f = collections.Counter(); incl_f = collections.Counter(); leaf_c = collections.Counter()
thread = collections.Counter(); kernel_sys = collections.Counter(); native_leaf = collections.Counter()
for tid, frames in samples:
    if tid != main_tid:
        # background threads: label by what they do
        syms = [s for s, d in frames]
        lab = 'GC' if any(GC_RE.search(s) for s in syms) else 'JIT compile' if any(COMPILE_RE.search(s) for s in syms) else ('kernel' if frames and 'kernel' in frames[0][1] else (frames[0][0] if frames else '?'))
        thread['bg: ' + lab] += 1
        continue
    thread['main'] += 1
    g, f = classify(frames)
    self_g[g] += 1; self_f[f] += 1
    if frames:
        leaf_c[frames[0][0] + ' (' + frames[0][1].split('/')[-1] + ')'] += 1
        if not frames[0][0].startswith('JS:'):
            # which native/builtin, attributed to its JS caller function
            for s, d in frames:
                if s.startswith('JS:'):
                    native_leaf[(frames[0][0][:60], js_group(s)[1][:70])] += 1; break
    if frames and 'kernel' in frames[0][1]:
        # the syscall: first user-space frame
        for s, d in frames:
            if 'kernel' not in d: kernel_sys[s[:80]] += 1; break
    seen = set()
    for s, d in frames:
        if s.startswith('JS:'):
            f2 = js_group(s)[1]
            if f2 not in seen: seen.add(f2); incl_f[f2] += 1
us = lambda n: n * per_sample * 1e6 / calls
tot = sum(thread.values()); mainn = thread['main']
print(f"samples {tot}: {us(tot):.1f} µs/call CPU in all threads; main {us(mainn):.1f}")
print("\n== threads / background ==")
for k, v in thread.most_common(15): print(f"{us(v):8.1f} µs  {100*v/tot:5.1f} %  {k}")
def show(title, c, n=top):
    print(f"\n== {title} ==")
    for k, v in c.most_common(n): print(f"{us(v):8.1f} µs  {100*v/mainn:5.1f} %  {k}")
show('main thread: self by group (natives/builtins attributed to nearest JS frame; GC/JIT/kernel split out)', self_g, 60)
show('main thread: self by JS function (incl. builtins it calls)', self_f)
show('main thread: inclusive by JS function', incl_f)
show('main thread: kernel time by user-space frame entering it', kernel_sys, 20)
show('main thread: non-JS leaves, with JS caller', native_leaf, 30)

# entry attribution: outermost project/SDK JS frame (the async function or I/O callback running)
entry = collections.Counter(); entry_by = collections.defaultdict(collections.Counter)
for tid, frames in samples:
    if tid != main_tid: continue
    e = None
    for s, d in reversed(frames):
        if s.startswith('JS:') and ('file://' in s) :
            e = js_group(s)[1]; break
    g, f = classify(frames)
    if e is None:
        e = '(no project frame) ' + ('GC' if g == 'GC' else g)
    entry[e] += 1; entry_by[e][g] += 1
show('main thread: by outermost project frame', entry, 30)
for k, v in entry.most_common(14):
    print(f"{us(v):8.1f}  {k[:90]}\n            " + ', '.join(f"{g} {us(x):.1f}" for g, x in entry_by[k].most_common(6)))
