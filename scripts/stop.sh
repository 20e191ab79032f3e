#!/usr/bin/env bash
# Stops everything `npm run quickstart` started: api, worker and the local services. Data is kept.
source "$(dirname "${BASH_SOURCE[0]}")/apps.sh"
stop_app api
stop_app worker
stop_app notion-emulator
bash "$ROOT/infra/local/down.sh"
say "stopped"
