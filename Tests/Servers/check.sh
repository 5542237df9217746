#!/usr/bin/env bash
# Checks the test servers from the outside with curl: starts testservers.py, requests every route
# and TLS endpoint, compares each answer with what README.md promises, then closes the supervisor's
# stdin and checks that every child stopped and the temporary folder is gone.
#   bash Tests/Servers/check.sh        # prints one line per check; exits 1 if any failed
# Takes about 30 s (it inflates each 200 MiB bomb, and waits on the slow routes).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkfifo "$work/in"
sleep 100000 > "$work/in" & holder=$!
python3 "$here/testservers.py" < "$work/in" > "$work/out.json" 2> "$work/err.log" & SUP=$!
for _ in $(seq 1 600); do [ -s "$work/out.json" ] && break; sleep 0.1; done
J="$work/out.json"
if grep -q '"error"' "$J"; then cat "$J"; kill "$holder"; exit 1; fi
g(){ python3 -c "import json,sys;d=json.load(open('$J'));print(eval(sys.argv[1]))" "$1"; }
pass=0; fail=0
check(){ local name="$1" expect="$2" got="$3"; if [[ "$got" == $expect ]]; then pass=$((pass+1)); echo "ok   $name: $got"; else fail=$((fail+1)); echo "FAIL $name: expected [$expect] got [$got]"; fi; }
HB=$(g 'd["httpbin"]'); HB2=$(g 'd["httpbinAlt"]'); NG=$(g 'd["nginx"]'); CA=$(g 'd["certificates"]["caBundle"]'); F=$(g 'd["fault"]'); C=$(g 'd["canary"]')
check "httpbin /get" "200" "$(curl -s -o /dev/null -w '%{http_code}' ${HB}get)"
check "httpbinAlt /get" "200" "$(curl -s -o /dev/null -w '%{http_code}' ${HB2}get)"
check "nginx /small" "ok 200 2" "$(curl -s -w ' %{http_code} %{size_download}' ${NG}small)"
check "nginx /files/1m.bin matches disk" "200 $(sha256sum < $(g 'd["files"]["1m.bin"]') | cut -c1-16)" "$(curl -s -o "$work/v1m" -w '%{http_code}' ${NG}files/1m.bin) $(sha256sum < "$work/v1m" | cut -c1-16)"
check "nginx /files/10m.bin" "200 10485760" "$(curl -s -o /dev/null -w '%{http_code} %{size_download}' ${NG}files/10m.bin)"
head -c 30000000 /dev/zero > "$work/up.bin"
check "nginx /upload 30 MB read fully" "ok 200" "$(curl -s -w ' %{http_code}' --data-binary @"$work/up.bin" ${NG}upload)"
check "access log shows upload body length" "*\"POST /upload HTTP/1.1\" 200 300001*" "$(grep 'POST /upload' $(g 'd["logs"]["nginxAccess"]') | tail -1)"
check "nginx TLS /small h2" "ok 200 2" "$(curl -s --cacert $CA -w ' %{http_code} %{http_version}' $(g 'd["nginxTLS"]')small)"
check "nginx TLS /echo http1.1" "GET /echo HTTP/1.1 200" "$(curl -s --http1.1 --cacert $CA -w '%{http_code}' $(g 'd["nginxTLS"]')echo | tr '\n' ' ')"
check "nginx Unix socket /version" '{"Version":"gannet-test",*"Host":"docker"} 200' "$(curl -s --unix-socket "$(g 'd["nginxUnixSocket"]')" -w ' %{http_code}' http://docker/version)"
for v in good ipAddress wildcard; do check "tls $v succeeds" "200" "$(curl -s --cacert $CA -o /dev/null -w '%{http_code}' $(g "d['tls']['$v']")small)"; done
declare -A why=([wrongHost]="no alternative certificate subject name" [expired]="certificate has expired" [notYetValid]="certificate is not yet valid" [selfSigned]="self-signed certificate" [untrustedRoot]="unable to get local issuer certificate" [leafAsIssuer]="invalid CA certificate" [pathLengthExceeded]="path length constraint exceeded")
for v in "${!why[@]}"; do check "tls $v fails" "*${why[$v]}*" "$(curl -sS --cacert $CA -o /dev/null $(g "d['tls']['$v']")small 2>&1 | head -1)"; done
check "ipAddress as localhost fails" "*no alternative certificate subject name*" "$(curl -sS --cacert $CA -o /dev/null https://localhost:$(g "d['ports']['tls']['ipAddress']")/small 2>&1 | head -1)"
check "good against the untrusted root fails" "*unable to get local issuer*" "$(curl -sS --cacert $(g 'd["certificates"]["untrustedRootCA"]["pem"]') -o /dev/null $(g 'd["nginxTLS"]')small 2>&1 | head -1)"
M=$(g "d['tls']['mutualTLS']")
check "mTLS without cert" "400" "$(curl -s --cacert $CA -o /dev/null -w '%{http_code}' ${M}small)"
check "mTLS with PEM cert" "200" "$(curl -s --cacert $CA --cert $(g 'd["certificates"]["client"]["pem"]') --key $(g 'd["certificates"]["client"]["key"]') -o /dev/null -w '%{http_code}' ${M}small)"
check "mTLS with P12" "200" "$(curl -s --cacert $CA --cert-type P12 --cert "$(g 'd["certificates"]["client"]["pkcs12"]'):gannet" -o /dev/null -w '%{http_code}' ${M}small)"
check "mTLS with an untrusted client cert (server leaf)" "400" "$(curl -s --cacert $CA --cert $(g 'd["certificates"]["leaves"]["good"]["pem"]') --key $(g 'd["certificates"]["leaves"]["good"]["key"]') -o /dev/null -w '%{http_code}' ${M}small)"
cf(){ timeout 10 curl -sS "$@" 2>&1 >/dev/null | head -1; }
check "/truncated" "*(18)*500 bytes remaining*" "$(cf ${F}truncated)"
check "/double-length" "*(18)*" "$(cf ${F}double-length)"
check "/bad-chunk" "*(56)*hexadecimal*" "$(cf ${F}bad-chunk)"
check "/overflow-chunk" "*(56)*Too long hexadecimal*" "$(cf ${F}overflow-chunk)"
check "/chunk-close" "*(18)*" "$(cf ${F}chunk-close)"
check "/reset" "*(56)*reset*" "$(cf ${F}reset)"
check "/reset partial body" "262144" "$(curl -s -o /dev/null -w '%{size_download}' ${F}reset)"
check "/stall" "*(28)*0 bytes received*" "$(cf -m 2 ${F}stall)"
check "/slowloris" "*(28)*out of 1000000 bytes*" "$(cf -m 5 ${F}slowloris)"
check "/never-ends" "*(28)*bytes received*" "$(cf -m 1 ${F}never-ends)"
check "/huge-header" "*(27)*" "$(cf ${F}huge-header)"
check "/many-headers count" "10000" "$(curl -s -D - -o /dev/null ${F}many-headers | grep -c '^X-Header-')"
check "/bad-status" "*(1)*" "$(cf ${F}bad-status)"
check "/nul-header" "*(8)*Nul byte*" "$(cf ${F}nul-header)"
check "/1xx-flood count" "1000" "$(curl -s -D - -o /dev/null ${F}1xx-flood | grep -c '^HTTP/1.1 100')"
check "/1xx-flood?count=3" "3" "$(curl -s -D - -o /dev/null "${F}1xx-flood?count=3" | grep -c '^HTTP/1.1 100')"
check "/gzip-bomb wire < 250 KB" "2?????" "$(curl -s -o /dev/null -w '%{size_download}' ${F}gzip-bomb)"
check "/gzip-bomb inflates to 200 MiB" "209715200" "$(curl -s --compressed ${F}gzip-bomb | wc -c)"
check "/stacked-encoding header" "*gzip, gzip*" "$(curl -s -D - -o /dev/null ${F}stacked-encoding | grep -i content-encoding)"
check "/stacked-encoding inflates to 200 MiB" "209715200" "$(curl -s --compressed ${F}stacked-encoding | wc -c)"
check "/redirect file" "307 file:///etc/passwd" "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "${F}redirect?to=file:///etc/passwd&status=307")"
check "/redirect ftp 301" "301 ftp://127.0.0.1/x" "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "${F}redirect?to=ftp%3A%2F%2F127.0.0.1%2Fx&status=301")"
check "/loop-a" "*(47)*" "$(cf -L --max-redirs 20 ${F}loop-a)"
check "/chain/300" "done 200 300 1" "$(curl -s -L --max-redirs 400 -w ' %{http_code} %{num_redirects} %{num_connects}' ${F}chain/300)"
check "/flaky fails then succeeds" "503 503 200" "$(for i in 1 2 3; do curl -s -o /dev/null -w '%{http_code} ' "${F}flaky/check?fail=2"; done | sed 's/ $//')"
check "/flaky Retry-After seconds" "*Retry-After: 7*" "$(curl -s -D - -o /dev/null "${F}flaky/check-s?retry_after=7" | tr -d '\r')"
check "/flaky Retry-After date" "*Retry-After: ???, ?? ??? ???? ??:??:?? GMT*" "$(curl -s -D - -o /dev/null "${F}flaky/check-d?retry_after_date=2" | tr -d '\r')"
check "/flaky reset" "*(56)*" "$(cf "${F}flaky/check-r?mode=reset")"
check "/bearer refuses a stale token" "401" "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer stale' ${F}bearer/check)"
check "/bearer accepts a fresh token" "200" "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer fresh-1' ${F}bearer/check)"
check "/bearer-counts" '{"accepted": 1, "refused": 1}' "$(curl -s ${F}bearer-counts/check)"
check "canary before" "0" "$(curl -s ${F}canary/count)"
check "canary hit" "canary" "$(curl -s ${C}evil.dtd)"
check "canary after" "1" "$(curl -s ${F}canary/count)"
H2C=$(g 'd["nginxH2C"]'); P=$(g 'd["proxy"]'); PA=$(g 'd["authenticatingProxy"]'); TLS=$(g 'd["nginxTLS"]')
check "h2c prior knowledge" "GET /echo HTTP/2.0 200 2" "$(curl -s --http2-prior-knowledge -w '%{http_code} %{http_version}' ${H2C}echo | tr '\n' ' ')"
check "h2c refuses HTTP/1.1" "000" "$(curl -s -o /dev/null -w '%{http_code}' ${H2C}small)"
check "tls rsa" "200 *TLS_AES*" "$(curl -s --cacert $CA -o /dev/null -w '%{http_code} ' $(g "d['tls']['rsa']")small)$(curl -sv --cacert $CA -o /dev/null $(g "d['tls']['rsa']")small 2>&1 | grep 'SSL connection using')"
check "rsa leaf key type" "*rsaEncryption*" "$(openssl x509 -in $(g "d['certificates']['leaves']['rsa']['pem']") -noout -text | grep 'Public Key Algorithm')"
check "tls12Only" "*TLSv1.2*" "$(curl -sv --cacert $CA -o /dev/null $(g "d['tls']['tls12Only']")small 2>&1 | grep 'SSL connection using')"
check "tls13Only" "*TLSv1.3*" "$(curl -sv --cacert $CA -o /dev/null $(g "d['tls']['tls13Only']")small 2>&1 | grep 'SSL connection using')"
check "tls13Only refuses 1.2" "*(35)*protocol version*" "$(curl -sS --tls-max 1.2 --cacert $CA -o /dev/null $(g "d['tls']['tls13Only']")small 2>&1 | head -1)"
for v in stapledGood stapledGoodTLS12Only stapledGoodTLS13Only; do check "tls $v staples good" "200" "$(curl -s --cert-status --cacert $CA -o /dev/null -w '%{http_code}' $(g "d['tls']['$v']")small)"; done
for v in stapledRevoked stapledRevokedTLS12Only stapledRevokedTLS13Only; do check "tls $v staples revoked" "*(91)*keyCompromise*" "$(curl -sS --cert-status --cacert $CA -o /dev/null $(g "d['tls']['$v']")small 2>&1 | head -1)"; done
for v in good tls12Only tls13Only; do check "tls $v staples nothing" "*(91)*No OCSP response received*" "$(curl -sS --cert-status --cacert $CA -o /dev/null $(g "d['tls']['$v']")small 2>&1 | head -1)"; done
check "http1Only" "200 1.1" "$(curl -s --cacert $CA -o /dev/null -w '%{http_code} %{http_version}' $(g "d['tls']['http1Only']")small)"
check "nginx https->http redirect" "302 http://localhost:*/small" "$(curl -s --cacert $CA -o /dev/null -w '%{http_code} %{redirect_url}' "${TLS}redirect/302?to=http://localhost:$(g "d['ports']['nginx']")/small")"
check "nginx redirect/308" "308 *" "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "${NG}redirect/308?to=/small")"
check "fault /echo" "POST /echo HTTP/1.1*X-Test: 1*body-length: 5*" "$(curl -s -H 'X-Test: 1' --data hello ${F}echo | tr '\r\n' '  ')"
check "fault /upload-digest" "30000000 $(sha256sum "$work/up.bin" | cut -c1-64)" "$(curl -s --data-binary @"$work/up.bin" ${F}upload-digest)"
check "fault /upload-digest chunked" "30000000 $(sha256sum "$work/up.bin" | cut -c1-64)" "$(curl -s -H 'Transfer-Encoding: chunked' --data-binary @"$work/up.bin" ${F}upload-digest)"
check "fault Expect: 100-continue answered at once" "0.[0-4]*" "$(curl -s -o /dev/null -w '%{time_total}' -H 'Expect: 100-continue' --data-binary @"$work/up.bin" ${F}upload-digest)"
check "fault /status/204" "204 0" "$(curl -s -w '%{http_code} %{size_download}' ${F}status/204)"
check "fault /delay-ms/300" "ok 0.3*" "$(curl -s -w ' %{time_total}' ${F}delay-ms/300)"
curl -s "${F}concurrency/hold?key=check&ms=500" > /dev/null & curl -s "${F}concurrency/hold?key=check&ms=500" > /dev/null; wait $!
check "fault /concurrency/max after two parallel holds" '{"max": 2, "in_flight": 0, "started": 2, "finished": 2, "aborted": 0}' "$(curl -s "${F}concurrency/max?key=check")"
curl -s -m 0.3 "${F}concurrency/hold?key=gone&ms=5000" > /dev/null
for _ in $(seq 1 100); do curl -s "${F}concurrency/max?key=gone" | grep -q '"aborted": 1' && break; sleep 0.1; done
check "fault /concurrency/hold counts a client that left" '*"aborted": 1}' "$(curl -s "${F}concurrency/max?key=gone")"
check "fault /empty-reply" "*(52)*" "$(cf ${F}empty-reply)"
check "fault /reset-immediately" "*(56)*reset*" "$(cf ${F}reset-immediately)"
check "fault /stall-body" "*(28)*10 out of 1000*" "$(cf -m 2 ${F}stall-body)"
check "fault /slow-body" "ddddd 0.5*" "$(curl -s -w ' %{time_total}' "${F}slow-body?bytes=5&interval_ms=100")"
check "fault /deflate-bomb" "203848 209715200" "$(curl -s -o /dev/null -w '%{size_download}' ${F}deflate-bomb) $(curl -s --compressed ${F}deflate-bomb | wc -c)"
check "fault /brotli-bomb" "317 209715200" "$(curl -s -o /dev/null -w '%{size_download}' ${F}brotli-bomb) $(curl -s --compressed ${F}brotli-bomb | wc -c)"
check "proxy absolute-form" "ok 200" "$(curl -s -x $P -w ' %{http_code}' ${NG}small)"
check "proxy CONNECT" "ok 200 2" "$(curl -s -x $P --cacert $CA -w ' %{http_code} %{http_version}' ${TLS}small)"
check "proxy refuses non-loopback" "403" "$(curl -s -x $P -o /dev/null -w '%{http_code}' http://example.com/)"
check "auth proxy without creds" "407" "$(curl -s -x $PA -o /dev/null -w '%{http_code}' ${NG}small)"
check "auth proxy with creds" "ok 200" "$(curl -s -x $PA -U gannet:proxy -w ' %{http_code}' ${NG}small)"
check "auth proxy CONNECT with creds" "ok 200" "$(curl -s -x $PA -U gannet:proxy --cacert $CA -w ' %{http_code}' ${TLS}small)"
check "proxy log records heads" "*Proxy-Authorization: Basic Z2FubmV0OnByb3h5*" "$(cat $(g 'd["logs"]["proxy"]') | tr '\r\n' '  ')"
# stop
D=$(g 'd["directory"]')
KIDS=$(for c in $(cat /proc/$SUP/task/*/children); do echo $c; cat /proc/$c/task/*/children; done | tr '\n' ' ')
kill "$holder"; wait "$SUP"
alive=""; for k in $KIDS; do [ -e /proc/$k ] && [ "$(grep State /proc/$k/status | awk '{print $2}')" != Z ] && alive="$alive $k"; done
check "children ($(echo $KIDS | wc -w)) stopped" "" "$alive"
check "pgrep on the temp dir" "" "$(pgrep -f "$D")"
check "temp dir removed" "gone" "$(ls -d $D 2>/dev/null || echo gone)"
check "supervisor stderr empty" "" "$(cat "$work/err.log")"
if out=$(python3 "$here/retry_check.py" 2>&1); then pass=$((pass+1)); else fail=$((fail+1)); fi; echo "$out"
if out=$(python3 "$here/early_answer_check.py" 2>&1); then pass=$((pass+1)); else fail=$((fail+1)); fi; echo "$out"
echo "passed $pass, failed $fail"
[ "$fail" -eq 0 ]
