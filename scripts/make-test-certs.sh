#!/usr/bin/env bash
# Regenerates test/fixtures/tls/: a test CA, a server certificate for 127.0.0.1
# and localhost, one for another host name (verify-full must refuse it), a
# client certificate, and a second CA nobody trusts. Valid for 100 years; the
# tests only read these files (a fresh machine needs no openssl).
set -euo pipefail
cd "$(dirname "$0")/../test/fixtures/tls"
days=36500
subj() { echo "/CN=$1/O=arena tests"; }

openssl req -x509 -newkey rsa:2048 -nodes -days "$days" -subj "$(subj 'arena test CA')" \
  -keyout ca-key.pem -out ca.pem 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days "$days" -subj "$(subj 'untrusted CA')" \
  -keyout other-ca-key.pem -out other-ca.pem 2>/dev/null

issue() { # name, subject CN, SAN, extended key usage
  openssl req -newkey rsa:2048 -nodes -subj "$(subj "$2")" -keyout "$1-key.pem" -out "$1.csr" 2>/dev/null
  printf 'subjectAltName=%s\nextendedKeyUsage=%s\n' "$3" "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days "$days" \
    -extfile "$1.ext" -out "$1.pem" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}
issue server localhost 'IP:127.0.0.1,DNS:localhost' serverAuth
issue elsewhere elsewhere.example 'DNS:elsewhere.example' serverAuth
issue client arena-client 'DNS:arena-client' clientAuth
rm -f ca.srl
chmod 600 ./*-key.pem
