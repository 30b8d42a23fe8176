#!/bin/sh
# trace_report_signal.sh: SIGINT (then SIGTERM) while trace's report side waits for nvdisasm:
# exit 128+N, a message on stderr, the report written and marked incomplete, nvdisasm killed and
# reaped, nothing left in TMPDIR and no temporary report file. The fake nvdisasm writes its pid
# to a marker file and blocks; the signal is sent once the marker is there. Python starts
# coalprobe: a background job of a non-interactive sh would start with SIGINT ignored.
# usage: trace_report_signal.sh COALPROBE GOLDEN_TRACE_DIR
set -u
bin=$1 golden=$2
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
cp -R "$golden/handmade-opcodes" "$s/raw"
cat >"$s/nvdisasm" <<'EOS'
#!/bin/sh
# a fake nvdisasm that never ends: its pid in $MARKER, then it waits
echo $$ >"$MARKER.tmp" && mv "$MARKER.tmp" "$MARKER"
exec sleep 300
EOS
chmod +x "$s/nvdisasm"
python3 - "$bin" "$s" <<'EOF_PY'
import json, os, signal, subprocess, sys, time
bin, s = sys.argv[1], sys.argv[2]
fails = []
for sig, name, fmt in ((signal.SIGINT, "SIGINT", "json"), (signal.SIGTERM, "SIGTERM", "table")):
    tmp = os.path.join(s, "tmp-" + name)
    os.mkdir(tmp)
    marker = os.path.join(s, "marker-" + name)
    report = os.path.join(s, "report-" + name)
    env = dict(os.environ, TMPDIR=tmp, COALPROBE_NVDISASM=os.path.join(s, "nvdisasm"),
               MARKER=marker, COALPROBE_NVDISASM_TIMEOUT="600")
    p = subprocess.Popen([bin, "trace", "--from-raw", os.path.join(s, "raw"), "--format", fmt,
                          "-o", report], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    deadline = time.time() + 60
    while not os.path.exists(marker) and p.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    if not os.path.exists(marker):
        p.kill()
        fails.append(f"{name}: the fake nvdisasm never started")
        continue
    nvdisasm = int(open(marker).read())
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        fails.append(f"{name}: coalprobe did not stop")
    err = err.decode(errors="replace")
    if p.returncode != 128 + sig:
        fails.append(f"{name}: exit {p.returncode}, expected {128 + sig}")
    want = f"coalprobe: trace: interrupted by {name} while reporting; the report holds what was read and is marked incomplete"
    if want not in err:
        fails.append(f"{name}: stderr lacks '{want}': {err!r}")
    # nvdisasm killed and reaped by coalprobe: gone as soon as coalprobe has exited
    try:
        os.kill(nvdisasm, 0)
        fails.append(f"{name}: the fake nvdisasm {nvdisasm} is still running")
        os.kill(nvdisasm, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if os.listdir(tmp):
        fails.append(f"{name}: left in TMPDIR: {os.listdir(tmp)}")
    left = [f for f in os.listdir(s) if ".tmp-" in f]
    if left:
        fails.append(f"{name}: temporary report files left: {left}")
    text = open(report).read() if os.path.exists(report) else ""
    if fmt == "json":
        doc = json.loads(text) if text else {}
        if doc.get("complete") is not False or "nvdisasm was stopped" not in (doc.get("incomplete_reason") or ""):
            fails.append(f"{name}: the report is not marked incomplete: {text[:300]!r}")
    elif "INCOMPLETE: coalprobe was interrupted by SIGTERM while reporting; nvdisasm was stopped" not in text:
        fails.append(f"{name}: the table is not marked incomplete: {text[:600]!r}")
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
EOF_PY
