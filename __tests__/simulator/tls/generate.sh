#!/usr/bin/env bash
# Regenerates the TLS fixtures of the proxy tests (run from anywhere; needs openssl 3).
#
# TEST-ONLY KEYS. server.key is public in this repository: never trust ca.crt outside a test
# process (server.crt covers a real domain, *.trycloudflare.com). The CA's own key is thrown away at the end, so nobody can sign another certificate
# with this CA; rerunning this script replaces all three files.
#
#   ca.crt      test CA, trusted by test child processes through NODE_EXTRA_CA_CERTS
#   server.crt  tests.example.test, other.example.test, the IPv6 literal 2001:db8::1 and *.trycloudflare.com (the stand-in
#               cloudflared of the tunnel tests), signed by the test CA
#   server.key  its private key (PKCS#8, P-256)
#
# Both certificates are valid from 2000-01-01 to 2100-01-01: fixed dates rather than "now", so a
# machine whose clock is behind the one that made them does not see them as not yet valid.
set -euo pipefail
cd "$(dirname "$0")"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/index.txt"
cat > "$work/ca.cnf" <<CNF
[ca]
default_ca = test_ca
[test_ca]
database = $work/index.txt
new_certs_dir = $work
serial = $work/serial
default_md = sha256
policy = any_name
unique_subject = no
copy_extensions = none
[any_name]
commonName = supplied
[ca_ext]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:tests.example.test,DNS:other.example.test,DNS:*.trycloudflare.com,IP:2001:db8::1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF
openssl rand -hex 16 > "$work/serial"
dates=(-startdate 20000101000000Z -enddate 21000101000000Z)

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/ca.key"
openssl req -new -key "$work/ca.key" -subj '/CN=test-run-action proxy tests CA (test only)' -out "$work/ca.csr"
openssl ca -batch -notext -config "$work/ca.cnf" -selfsign -keyfile "$work/ca.key" -extensions ca_ext \
  "${dates[@]}" -in "$work/ca.csr" -out ca.crt

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out server.key
openssl req -new -key server.key -subj '/CN=tests.example.test' -out "$work/server.csr"
openssl ca -batch -notext -config "$work/ca.cnf" -cert ca.crt -keyfile "$work/ca.key" -extensions server_ext \
  "${dates[@]}" -in "$work/server.csr" -out server.crt

openssl verify -CAfile ca.crt server.crt
