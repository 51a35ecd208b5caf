#!/usr/bin/env bash
# Makes sure what `npm test` needs beyond npm is here: Debian's Chromium (browser tests), pdftotext (the report journey), nginx
# (the compose nginx's log test), a running MySQL/MariaDB (server tests) and Redis (the several-processes test). Installs or starts
# them when it can (as root), otherwise says in one line what to run. Settings: TEST_DATABASE_URL host/port are assumed local (127.0.0.1:3306).
set -u

fail() { echo "npm test: $*" >&2; exit 1; }

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "npm test: instalando Chromium de Debian (una sola vez)…"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ||
      fail "no se pudo instalar Chromium; ejecute: sudo apt-get install -y chromium"
  else
    fail "falta Chromium en /usr/bin/chromium; ejecute: sudo apt-get install -y chromium"
  fi
fi

# poppler-utils' pdftotext: the contest journey opens the downloaded report PDF with a real reader.
if ! command -v pdftotext >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "npm test: instalando poppler-utils de Debian (una sola vez)…"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null) ||
      fail "no se pudo instalar poppler-utils; ejecute: sudo apt-get install -y poppler-utils"
  else
    fail "falta pdftotext; ejecute: sudo apt-get install -y poppler-utils"
  fi
fi

# Debian's nginx (nginx-light): the compose nginx's log test runs deploy/nginx.conf for real. Debian's
# policy-rc.d in containers keeps the package from starting a server of its own.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "npm test: instalando nginx-light de Debian (una sola vez)…"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null) ||
      fail "no se pudo instalar nginx; ejecute: sudo apt-get install -y nginx-light"
  else
    fail "falta nginx; ejecute: sudo apt-get install -y nginx-light"
  fi
fi

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
