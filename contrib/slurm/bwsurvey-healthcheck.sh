#!/usr/bin/env bash
# A plain Slurm HealthCheckProgram (slurm.conf: HealthCheckProgram=, run on
# every node) without NHC: reads this node's verdict with `bwreport verdict`
# and
#   flagged (3)  drains the node with the verdict as its reason, which
#                begins "bwsurvey:" (so `bwreport undrain` may resume it)
#   healthy (0)  resumes the node only if its current drain reason begins
#                "bwsurvey:" (an operator's drain is never undone)
#   otherwise    does nothing (not surveyed, too old, unreadable source)
# usage: bwsurvey-healthcheck.sh SURVEY_FILE [MAX_AGE_DAYS]
# BWSURVEY_BWREPORT and SCONTROL name the programs when not on PATH;
# BWSURVEY_NODE the node when Slurm names it otherwise than `hostname -s`.
set -u
source_file=${1:?usage: bwsurvey-healthcheck.sh SURVEY_FILE [MAX_AGE_DAYS]}
max_age=${2:--1}
bwreport=${BWSURVEY_BWREPORT:-bwreport}
scontrol=${SCONTROL:-scontrol}
node=${BWSURVEY_NODE:-$(hostname -s)}

line=$("$bwreport" verdict "$source_file" --node "$node" --max-age "$max_age" 2>/dev/null)
rc=$?
case $rc in
    3)
        reason="bwsurvey: ${line#*: flagged: }"
        # Under 80 characters and nothing a shell or scontrol would read.
        reason=$(printf '%s' "$reason" | tr -c 'A-Za-z0-9._,:%/+[] -' '_' | cut -c1-79)
        exec "$scontrol" update NodeName="$node" State=DRAIN Reason="$reason"
        ;;
    0)
        current=$("$scontrol" show node "$node" --oneliner 2>/dev/null | sed -n 's/.* Reason=\(.*\)/\1/p')
        case "$current" in
            bwsurvey:*) exec "$scontrol" update NodeName="$node" State=RESUME ;;
        esac
        ;;
esac
exit 0
