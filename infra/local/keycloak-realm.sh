#!/usr/bin/env bash
# Makes the running local Keycloak hold the committed demo realm (infra/local/keycloak/trove-realm.json):
# imported when missing, and imported afresh when the committed file changed since the last import
# (the realm is then replaced whole: users the tests made in it go with it). Through the admin
# REST API, with the master realm's administrator that the first start made.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

realm_file="$TROVE_ROOT/infra/local/keycloak/trove-realm.json"
stamp="$KEYCLOAK_DATA/realm.sha256"
base="http://127.0.0.1:$KEYCLOAK_PORT"
wanted="$(sha256sum "$realm_file" | cut -d' ' -f1)"

# A Keycloak answering on the port without this checkout's administrator password was started
# from elsewhere (another checkout, a leftover of a stopped run): say so instead of failing to sign in.
[[ -s "$KEYCLOAK_ADMIN_PASSWORD_FILE" ]] ||
  die "a Keycloak answers on :$KEYCLOAK_PORT but was not started from this checkout (no $KEYCLOAK_ADMIN_PASSWORD_FILE): stop it (ss -ltnp | grep :$KEYCLOAK_PORT) or give this checkout another TROVE_KEYCLOAK_PORT"
token="$(curl -fsS "$base/realms/master/protocol/openid-connect/token" \
  --data-urlencode grant_type=password --data-urlencode client_id=admin-cli \
  --data-urlencode username=admin --data-urlencode "password=$(cat "$KEYCLOAK_ADMIN_PASSWORD_FILE")" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')" ||
  die "could not sign in to Keycloak's admin API (password in $KEYCLOAK_ADMIN_PASSWORD_FILE)"

status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$base/admin/realms/trove")"
if [[ "$status" == 200 && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
  log "keycloak realm 'trove' is up to date"
  exit 0
fi
if [[ "$status" == 200 ]]; then
  log "keycloak realm 'trove' changed in the repository: importing it afresh"
  curl -fsS -X DELETE -H "Authorization: Bearer $token" "$base/admin/realms/trove" || die "could not remove the old realm"
fi
log "importing the keycloak realm 'trove' (demo user 'demo', password 'demo')"
curl -fsS -X POST -H "Authorization: Bearer $token" -H 'content-type: application/json' \
  --data-binary "@$realm_file" "$base/admin/realms" || die "could not import $realm_file"
echo "$wanted" >"$stamp"
