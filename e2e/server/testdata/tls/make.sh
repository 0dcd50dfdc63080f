#!/bin/sh
# Remakes the test CA and the test server's certificate (see README.md).
set -eu
cd "$(dirname "$0")"
openssl ecparam -name prime256v1 -genkey -noout -out ca-key.pem
openssl req -x509 -new -key ca-key.pem -sha256 -days 36500 \
  -subj "/CN=protoc-gen-ai-tools e2e test CA" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -out ca.pem
openssl ecparam -name prime256v1 -genkey -noout -out server-key.pem
openssl req -new -key server-key.pem -subj "/CN=localhost" -out server.csr
printf '%s\n' \
  "basicConstraints=critical,CA:FALSE" \
  "keyUsage=critical,digitalSignature" \
  "extendedKeyUsage=serverAuth" \
  "subjectAltName=IP:127.0.0.1,DNS:localhost" >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem \
  -CAcreateserial -sha256 -days 36500 -extfile server.ext -out server.pem
rm -f server.csr server.ext ca.srl
