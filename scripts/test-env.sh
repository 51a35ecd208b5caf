#!/usr/bin/env bash
# Makes sure what `npm test` needs beyond npm is here: Debian's Chromium (browser tests), pdftotext (the report journey), nginx
# (the compose nginx's log test), Xvfb, zenity, xdotool and xwd (the agent's messages on a screen), iproute2
# and nftables (the agent's network policy, in namespaces the tests create), Wine and MinGW-w64 (the agent's Windows executable), a running MySQL/MariaDB (server tests) and Redis (the several-processes test). Installs or starts
# them when it can (as root), otherwise says in one line what to run. Settings: TEST_DATABASE_URL host/port are assumed local (127.0.0.1:3306).
set -u

fail() { echo "npm test: $*" >&2; exit 1; }

# need_deb <present?> <package> <what is missing>: installs a Debian package when the check fails (as
# root with apt-get), else says in one line what to run.
need_deb() {
  if eval "$1"; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "npm test: instalando $2 de Debian (una sola vez)…"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null) ||
      fail "no se pudo instalar $2; ejecute: sudo apt-get install -y $2"
  else
    fail "falta $3; ejecute: sudo apt-get install -y $2"
  fi
}

need_deb '[ -x /usr/bin/chromium ]' chromium 'Chromium en /usr/bin/chromium'
# poppler-utils' pdftotext: the contest journey opens the downloaded report PDF with a real reader.
need_deb 'command -v pdftotext >/dev/null 2>&1' poppler-utils pdftotext
# Debian's nginx (nginx-light): the compose nginx's log test runs deploy/nginx.conf for real. Debian's
# policy-rc.d in containers keeps the package from starting a server of its own.
need_deb '[ -x /usr/sbin/nginx ]' nginx-light nginx
# The judges' messages on the lab machine's screen: a virtual X display (Xvfb), the dialog the agent
# shows (zenity), the contestant closing it (xdotool), and a screenshot of the display on failure (xwd).
need_deb '[ -x /usr/bin/Xvfb ]' xvfb Xvfb
need_deb 'command -v zenity >/dev/null 2>&1' zenity zenity
need_deb 'command -v xdotool >/dev/null 2>&1' xdotool xdotool
need_deb 'command -v xwd >/dev/null 2>&1' x11-apps xwd
# ...and the message's text read back from the window (copied to the clipboard, read with xclip).
need_deb 'command -v xclip >/dev/null 2>&1' xclip xclip
# The network policy: the agent's firewall (nft) in lab network namespaces the tests create
# (ip netns, veth), never this machine's own.
need_deb '[ -x /usr/sbin/ip ] || [ -x /sbin/ip ]' iproute2 ip
need_deb '[ -x /usr/sbin/nft ]' nftables nft
# ...and what a contestant tries there: curl (another TLS name on an allowed address), openssl (the lab's
# HTTPS certificate) and setpriv (util-linux: the contestant's ordinary account).
need_deb 'command -v curl >/dev/null 2>&1' curl curl
need_deb 'command -v openssl >/dev/null 2>&1' openssl openssl
need_deb 'command -v setpriv >/dev/null 2>&1' util-linux setpriv
# The Windows executable of the agent, run under Debian's Wine (64-bit loader only).
need_deb '[ -x /usr/lib/wine/wine64 ]' wine64 'Wine (wine64)'
# ...and its Windows process lister, compiled from agent/native/proclist.c by `npm run agent:build`.
need_deb 'command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1' gcc-mingw-w64-x86-64-win32 'MinGW-w64 (x86_64-w64-mingw32-gcc)'
# The agent's systemd unit the key dialog writes, checked with `systemd-analyze verify` (the package
# also holds the standard units the check reads; installing it starts nothing in a container).
need_deb 'command -v systemd-analyze >/dev/null 2>&1 && [ -d /usr/lib/systemd/system ]' systemd systemd-analyze

db_up() { node -e "require('net').connect(3306,'127.0.0.1').on('connect',function(){process.exit(0)}).on('error',function(){process.exit(1)})"; }
if ! db_up; then
  if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/mariadbd ]; then
    echo "npm test: iniciando MariaDB…"
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd >/dev/null 2>&1
    for _ in $(seq 1 30); do db_up && break; sleep 1; done
  fi
  db_up || fail "MySQL/MariaDB no responde en 127.0.0.1:3306; inícielo (p. ej. sudo start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd)"
fi
redis_up() { node -e "require('net').connect(6379,'127.0.0.1').on('connect',function(){process.exit(0)}).on('error',function(){process.exit(1)})"; }
if ! redis_up; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "npm test: iniciando Redis…"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null 2>&1
    for _ in $(seq 1 20); do redis_up && break; sleep 0.5; done
  fi
  redis_up || fail "Redis no responde en 127.0.0.1:6379 (lo usa la prueba de varios procesos); inícielo (p. ej. redis-server --daemonize yes)"
fi
exit 0
