#!/usr/bin/env bash
# The deployment recipe on one computer: one Redis keeping the classes on disk (redis.conf), two
# app servers sharing it (`streamlit run app.py`), Debian's nginx in front of them
# (nginx-site.conf: WebSockets, sticky sessions, fail-over). Nothing needs root; Ctrl-C stops it
# all. To see a fail-over, stop one app server (`kill PID`, printed below) in the middle of a
# class: its browsers reconnect through nginx to the other one.
#
#   docs/deploy/run-local.sh        then open http://THIS-COMPUTER:8080 (phones: its network address)
#
# Settings (environment): PORT=8080 (nginx), APP_PORTS="8501 8502" (one app server a port),
# REDIS_PORT=6380, RUN_DIR=a new folder for the logs, the nginx files and Redis's data,
# PYTHON=python3, NGINX=/usr/sbin/nginx, REDIS_SERVER=redis-server, WAIT=120 (seconds to start).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
PORT=${PORT:-8080}
APP_PORTS=${APP_PORTS:-"8501 8502"}
REDIS_PORT=${REDIS_PORT:-6380}
PYTHON=${PYTHON:-python3}
NGINX=${NGINX:-/usr/sbin/nginx}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
WAIT=${WAIT:-120}
RUN_DIR=${RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/classic-deploy-XXXXXX")}
mkdir -p "$RUN_DIR/redis" "$RUN_DIR/nginx/logs" "$RUN_DIR/nginx/tmp"
# Run as root, nginx's workers are `nobody`: they must reach their temporary files.
chmod 755 "$RUN_DIR" "$RUN_DIR/nginx" "$RUN_DIR/nginx/tmp"

pids=()
stop() {
  trap - INT TERM EXIT
  echo "== stopping (logs in $RUN_DIR)"
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  wait || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Wait until $1 answers (a TCP port, or a URL when it starts with http), at most WAIT seconds,
# and until then that the process $2 that should answer it is still running (not another one
# that had the port already).
wait_for() {
  local deadline=$((SECONDS + WAIT))
  until kill -0 "$2" 2>/dev/null && "$PYTHON" - "$1" <<'EOF' 2>/dev/null; do
import socket, sys, urllib.request
target = sys.argv[1]
if target.startswith("http"):
    urllib.request.urlopen(target, timeout=2).read()
else:
    socket.create_connection(("127.0.0.1", int(target)), timeout=2).close()
EOF
    if ! kill -0 "$2" 2>/dev/null; then
      echo "== the process for $1 has exited (logs in $RUN_DIR)" >&2
      exit 1
    elif [ $SECONDS -ge $deadline ]; then
      echo "== $1 did not answer within $WAIT s (logs in $RUN_DIR)" >&2
      exit 1
    fi
    sleep 0.3
  done
  kill -0 "$2" 2>/dev/null || { echo "== the process for $1 has exited (logs in $RUN_DIR)" >&2; exit 1; }
}

"$REDIS_SERVER" "$here/redis.conf" --port "$REDIS_PORT" --dir "$RUN_DIR/redis" >"$RUN_DIR/redis.log" 2>&1 &
pids+=($!)
echo "== redis-server on 127.0.0.1:$REDIS_PORT (pid $!), appendonly yes, data in $RUN_DIR/redis"
wait_for "$REDIS_PORT" $!

servers=""
declare -A app_pids
for app_port in $APP_PORTS; do
  (cd "$repo" && CLASSIC_CLASS_STORE="redis://127.0.0.1:$REDIS_PORT/0" exec "$PYTHON" -m streamlit run app.py \
    --server.port "$app_port" --server.address 127.0.0.1 --server.headless true) \
    >"$RUN_DIR/app-$app_port.log" 2>&1 &
  pids+=($!)
  app_pids[$app_port]=$!
  servers+="    server 127.0.0.1:$app_port max_fails=1 fail_timeout=10s;\n"
  echo "== app server on 127.0.0.1:$app_port (pid $!), log $RUN_DIR/app-$app_port.log"
done

# The site as it is in the repository, with these ports: its `listen`, and a `server` line in
# its upstream for each app server instead of the two there.
awk -v listen="$PORT" -v servers="$servers" '
  /^    server 127\.0\.0\.1:[0-9]+ / { if (!done) printf "%s", servers; done = 1; next }
  /^    listen 80;$/ { print "    listen " listen ";"; next }
  { print }' "$here/nginx-site.conf" >"$RUN_DIR/nginx/site.conf"
cp "$here/nginx-local.conf" "$RUN_DIR/nginx/nginx.conf"

for app_port in $APP_PORTS; do wait_for "http://127.0.0.1:$app_port/_stcore/health" "${app_pids[$app_port]}"; done
"$NGINX" -p "$RUN_DIR/nginx" -c "$RUN_DIR/nginx/nginx.conf" -e stderr -t -q
"$NGINX" -p "$RUN_DIR/nginx" -c "$RUN_DIR/nginx/nginx.conf" -e stderr &
pids+=($!)
wait_for "http://127.0.0.1:$PORT/_stcore/health" $!
echo "== nginx on port $PORT (pid $!), logs in $RUN_DIR/nginx/logs"
echo "== ready: http://127.0.0.1:$PORT (phones: this computer's network address, port $PORT). Ctrl-C stops it all."
wait
