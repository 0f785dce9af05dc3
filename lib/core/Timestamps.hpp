#pragma once
// The time stamps results carry: created_utc and finished_utc (written by
// the run and by `bwreport merge`, so they live below both) and the local
// date of pmbw's stats lines.
#include <string>

namespace bws {

// Now, as "2024-05-01T12:00:00Z".
std::string utc_now_iso8601();
// Now in local time, as "2024-05-01 14:00:00" (pmbw's RESULT lines).
std::string local_now_text();

}  // namespace bws
