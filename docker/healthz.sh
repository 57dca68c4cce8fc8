#!/bin/bash
# healthz PORT [PATH]: exits 0 when http://127.0.0.1:PORT/PATH answers 200.
# A HEALTHCHECK that costs a shell, not a second Node.js process (bash's
# /dev/tcp; no curl in the slim images).
set -eu
port=${1:?usage: healthz PORT [PATH]}
path=${2:-/healthz}
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3
read -r _ status _ <&3
[ "$status" = 200 ]
