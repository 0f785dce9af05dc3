// The history archive at scale: generates an archive of N nodes x M
// metrics x S surveys through the code `bwreport history add` writes with
// (history::insert_survey), then measures its size on disk, the time of
// adding one more N-node survey (one transaction, as `history add` does,
// with its page cache), and of `history show --node` and `history show
// --metric` (the movers) run as bwreport runs them. Prints each query's
// EXPLAIN QUERY PLAN. Not a test and not installed; bench/history-archive.sh
// runs it and docs/PERFORMANCE.md keeps a run.
//   history_archive_scale ARCHIVE [--nodes N] [--metrics M] [--surveys S] [--reuse]
// --reuse: measure an archive made before with the same sizes (no generation).
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>

#include "history/ArchiveQueries.hpp"
#include "history/ArchiveStore.hpp"
#include "history/HistoryCommands.hpp"
#include "history/Sqlite.hpp"
#include "report/ReportCommand.hpp"

namespace {

using namespace bws::history;
using Clock = std::chrono::steady_clock;

struct Sizes {
  int nodes = 1000, metrics = 60, surveys = 100;
};

std::string host_name(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "n%05d", i);
  return buf;
}

std::string metric_name(int m) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "bench.metric%02d[double]", m);
  return buf;
}

// One survey of every node and metric: typical values with 3 % noise, one
// node in 200 at 85 %, a flag on those; two hardware cohorts.
SurveyIndex synthetic_survey(const Sizes& sizes, int survey, std::mt19937_64& rng) {
  SurveyIndex index;
  SurveyRow& s = index.survey;
  s.path = "/archive/survey" + std::to_string(survey) + ".h5";
  char sha[80];
  std::snprintf(sha, sizeof sha, "%064x", survey);
  s.sha256 = sha;
  const std::int64_t start = 1700000000 + std::int64_t{survey} * 7 * 86400;
  s.started_unix_s = start;
  char utc[32];
  const std::time_t t = start;
  std::strftime(utc, sizeof utc, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  s.started_utc = utc;
  s.job_id = std::to_string(100000 + survey);
  for (int n = 0; n < sizes.nodes; ++n) s.nodes.push_back(host_name(n));
  s.tool_version = "bench";
  s.commit_id = "bench";
  s.config_sha256 = std::string(64, '0');
  std::normal_distribution<double> noise(0.0, 0.03);
  index.values.reserve(static_cast<std::size_t>(sizes.nodes) * sizes.metrics);
  for (int n = 0; n < sizes.nodes; ++n)
    for (int m = 0; m < sizes.metrics; ++m) {
      const bool slow = (n * 7 + survey) % 200 == 0;
      const double value = 100e9 * (1 + 0.01 * m) * (slow ? 0.85 : 1.0) * (1 + noise(rng));
      index.values.push_back({s.nodes[n], metric_name(m), "B/s", true, value,
                              n % 10 == 0 ? "fat nodes" : "thin nodes", slow, slow ? "confirmed" : ""});
    }
  return index;
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void explain(SqliteDb& db, const char* what, const std::string& sql, int parameters) {
  SqliteStatement q = db.prepare("EXPLAIN QUERY PLAN " + sql);
  for (int p = 1; p <= parameters; ++p) q.bind(p, std::int64_t{1});
  std::printf("query plan (%s):\n", what);
  while (q.step()) std::printf("  %s\n", q.column_text(3).c_str());
}

double time_command(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const auto t0 = Clock::now();
  const int code = bws::report::run_report_command(history_command(), args, out, err);
  const double s = seconds_since(t0);
  if (code != 0) {
    std::fprintf(stderr, "history %s failed: %s", args[0].c_str(), err.str().c_str());
    std::exit(1);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: history_archive_scale ARCHIVE [--nodes N] [--metrics M] [--surveys S] [--reuse]\n");
    return 2;
  }
  const std::string path = argv[1];
  Sizes sizes;
  bool reuse = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) std::exit(2);
      const int v = std::atoi(argv[++i]);
      if (v < 1) {
        std::fprintf(stderr, "%s: allowed: an integer >= 1\n", a.c_str());
        std::exit(2);
      }
      return v;
    };
    if (a == "--nodes") sizes.nodes = value();
    else if (a == "--metrics") sizes.metrics = value();
    else if (a == "--surveys") sizes.surveys = value();
    else if (a == "--reuse") reuse = true;
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  std::mt19937_64 rng(12345);
  if (!reuse) {
    std::remove(path.c_str());
    SqliteDb db(path, SqliteDb::Mode::kReadWriteCreate);
    // Generation only: 4 GB of page cache, no syncs (the measured add below syncs as history add does).
    db.exec("PRAGMA cache_size = -4000000; PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY");
    prepare_archive(db);
    const auto t0 = Clock::now();
    for (int s = 1; s <= sizes.surveys; ++s) {
      SqliteTransaction transaction(db);
      insert_survey(db, synthetic_survey(sizes, s, rng), "complete", "bench");
      transaction.commit();
    }
    std::printf("generated %d nodes x %d metrics x %d surveys = %lld rows in %.1f s\n", sizes.nodes, sizes.metrics,
                sizes.surveys, static_cast<long long>(sizes.nodes) * sizes.metrics * sizes.surveys, seconds_since(t0));
  }
  struct stat st {};
  ::stat(path.c_str(), &st);
  std::printf("archive size: %.3f GB (%.1f bytes per node value)\n", st.st_size / 1e9,
              static_cast<double>(st.st_size) / (static_cast<double>(sizes.nodes) * sizes.metrics * sizes.surveys));

  // One more survey as `history add` writes it: its page cache, one transaction.
  {
    const SurveyIndex next = synthetic_survey(sizes, sizes.surveys + 1000, rng);
    SqliteDb db(path, SqliteDb::Mode::kReadWriteCreate);
    require_archive_version(db);
    tune_for_bulk_insert(db);
    const auto t0 = Clock::now();
    SqliteTransaction transaction(db);
    insert_survey(db, next, "complete", "bench");
    transaction.commit();
    std::printf("add of one %d-node survey (%lld node values): %.2f s\n", sizes.nodes,
                static_cast<long long>(next.values.size()), seconds_since(t0));
    // Leave the archive as generated, so that --reuse measures the same sizes.
    SqliteTransaction undo(db);
    db.exec("DELETE FROM node_values WHERE survey_id = (SELECT max(id) FROM surveys);"
            "DELETE FROM cohort_stats WHERE survey_id = (SELECT max(id) FROM surveys);"
            "DELETE FROM surveys WHERE id = (SELECT max(id) FROM surveys);");
    undo.commit();
  }
  {
    SqliteDb db(path, SqliteDb::Mode::kReadOnly);
    explain(db, "show --node: a node's series", kNodeSeriesSql, 2);
    explain(db, "show --metric: movers", kMoversSql, 1);
  }
  const std::string node = host_name(sizes.nodes / 2);
  std::printf("show --node %s --metric %s: %.3f s\n", node.c_str(), metric_name(0).c_str(),
              time_command({"show", path, "--node", node, "--metric", metric_name(0)}));
  std::printf("show --node %s (all %d metrics): %.3f s\n", node.c_str(), sizes.metrics,
              time_command({"show", path, "--node", node}));
  std::printf("show --metric %s --top 20 (movers over %d nodes): %.3f s\n", metric_name(0).c_str(), sizes.nodes,
              time_command({"show", path, "--metric", metric_name(0)}));
  return 0;
}
