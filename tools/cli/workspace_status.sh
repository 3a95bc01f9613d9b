#!/usr/bin/env bash
# Bazel's --workspace_status_command for stamped builds (bazel build --stamp
# --workspace_status_command=tools/cli/workspace_status.sh): the git revision --version reports.
# Unstamped builds (tests, everyday builds) never run it and report "unknown", so they stay cached.
revision=$(git rev-parse --short=12 HEAD 2>/dev/null) || exit 0
git diff --quiet HEAD 2>/dev/null || revision="$revision-dirty"
echo "STABLE_GIT_REVISION $revision"
