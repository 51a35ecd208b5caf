#!/usr/bin/env bash
# Makes sure what `npm test` needs beyond npm is here: Debian's Chromium (browser tests) and a
# running MySQL/MariaDB (server tests). Installs or starts them when it can (as root), otherwise
# says in one line what to run. Settings: TEST_DATABASE_URL host/port are assumed local (127.0.0.1:3306).
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

db_up() { node -e "require('net').connect(3306,'127.0.0.1').on('connect',function(){process.exit(0)}).on('error',function(){process.exit(1)})"; }
if ! db_up; then
  if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/mariadbd ]; then
    echo "npm test: iniciando MariaDB…"
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd >/dev/null 2>&1
    for _ in $(seq 1 30); do db_up && break; sleep 1; done
  fi
  db_up || fail "MySQL/MariaDB no responde en 127.0.0.1:3306; inícielo (p. ej. sudo start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd)"
fi
exit 0
