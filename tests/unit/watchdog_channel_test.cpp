// The watchdog's TCP channel (run/WatchdogChannel.hpp) in one process: rank
// 0's asker and several answering ranks over loopback; silent, closed,
// wrong and unparsable endpoints.
#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "run/WatchdogChannel.hpp"

namespace bws::run {
namespace {

constexpr std::uint64_t kNonce = 0x5eed1234abcdULL;

// Listeners for ranks 1..n, answered by one thread (as each rank's watchdog
// does) unless the rank is in `silent` (its kernel still accepts connections).
class AnsweringRanks {
 public:
  AnsweringRanks(const std::map<int, std::string>& positions, const std::vector<int>& silent) {
    for (const auto& [rank, position] : positions) {
      ranks_.push_back({rank, position, std::make_unique<PositionListener>()});
      ranks_.back().answers = std::find(silent.begin(), silent.end(), rank) == silent.end();
    }
    thread_ = std::thread([this] { serve(); });
  }
  ~AnsweringRanks() {
    stop_ = true;
    thread_.join();
  }
  WatchdogEndpoint endpoint(int rank) const {
    for (const Rank& r : ranks_)
      if (r.rank == rank) return r.listener->endpoint(rank);
    return {};
  }

 private:
  struct Rank {
    int rank;
    std::string position;
    std::unique_ptr<PositionListener> listener;
    bool answers = true;
  };
  void serve() {
    while (!stop_) {
      std::vector<pollfd> fds;
      std::vector<const Rank*> of;
      for (const Rank& r : ranks_)
        if (r.answers) {
          fds.push_back(pollfd{r.listener->fd(), POLLIN, 0});
          of.push_back(&r);
        }
      ::poll(fds.data(), fds.size(), 20);
      for (std::size_t i = 0; i < fds.size(); ++i)
        if ((fds[i].revents & POLLIN) != 0)
          of[i]->listener->answer_pending(answer_line(kNonce, of[i]->rank, of[i]->position));
    }
  }
  std::vector<Rank> ranks_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(WatchdogChannel, EndpointTextRoundTripsAndMalformedTextHasNoPort) {
  const WatchdogEndpoint parsed = parse_endpoint(4, "4242 10.1.2.3 fd00::7 127.0.0.1");
  EXPECT_EQ(parsed.rank, 4);
  EXPECT_EQ(parsed.port, 4242);
  EXPECT_EQ(parsed.addresses, (std::vector<std::string>{"10.1.2.3", "fd00::7", "127.0.0.1"}));
  EXPECT_EQ(endpoint_text(parsed), "4242 10.1.2.3 fd00::7 127.0.0.1");
  for (const char* bad : {"", "port 10.0.0.1", "0 127.0.0.1", "70000 127.0.0.1", "-5 127.0.0.1"})
    EXPECT_EQ(parse_endpoint(1, bad).port, 0) << bad;
}

TEST(WatchdogChannel, AnAnswerCountsOnlyForItsJobAndRank) {
  std::string position;
  ASSERT_TRUE(parse_answer(answer_line(kNonce, 3, "measuring"), kNonce, 3, &position));
  EXPECT_EQ(position, "measuring");
  EXPECT_FALSE(parse_answer(answer_line(kNonce + 1, 3, "measuring"), kNonce, 3, &position));  // another job
  EXPECT_FALSE(parse_answer(answer_line(kNonce, 4, "measuring"), kNonce, 3, &position));      // another rank
  EXPECT_FALSE(parse_answer("SSH-2.0-OpenSSH_9.2\r\n", kNonce, 3, &position));
  EXPECT_FALSE(parse_answer("bwsurvey-watchdog " + std::to_string(kNonce) + " 3 meas", kNonce, 3, &position));  // cut
  EXPECT_FALSE(parse_answer("", kNonce, 3, &position));
}

TEST(WatchdogChannel, LoopbackIsTheLastAddressAndNoOtherIsLoopback) {
  const std::vector<std::string> addresses = reachable_addresses(true);
  ASSERT_FALSE(addresses.empty());
  EXPECT_EQ(addresses.back(), "127.0.0.1");
  for (std::size_t i = 0; i + 1 < addresses.size(); ++i) {
    EXPECT_NE(addresses[i].rfind("127.", 0), 0u) << addresses[i];
    EXPECT_NE(addresses[i], "::1");
  }
}

TEST(WatchdogChannel, OnlyRanksThatAnswerForThemselvesAreCounted) {
  AnsweringRanks ranks({{1, "measuring"}, {2, "waiting"}, {3, "preparing"}, {4, "measuring"}, {5, "waiting"}},
                       /*silent=*/{4});
  std::vector<WatchdogEndpoint> endpoints;
  for (int r = 1; r <= 5; ++r) endpoints.push_back(ranks.endpoint(r));
  // Rank 6: its process is gone (its port closed). Rank 7: never listened.
  {
    PositionListener gone;
    endpoints.push_back(gone.endpoint(6));
  }
  endpoints.push_back(WatchdogEndpoint{7, 0, {}});
  // Rank 8's published port is rank 1's (a wrong address): rank 1's answer is not taken.
  WatchdogEndpoint wrong = ranks.endpoint(1);
  wrong.rank = 8;
  endpoints.push_back(wrong);
  // Rank 5: an unparsable address first, then the right ones.
  endpoints[4].addresses.insert(endpoints[4].addresses.begin(), "not-an-address");

  const auto start = std::chrono::steady_clock::now();
  const std::map<int, std::string> answers = ask_positions(endpoints, kNonce, 3.0, 0.5, /*max_open=*/2);
  const std::map<int, std::string> expected{{1, "measuring"}, {2, "waiting"}, {3, "preparing"}, {5, "waiting"}};
  EXPECT_EQ(answers, expected);
  EXPECT_LT(seconds_since(start), 3.0 + 5.0);  // the budget bounds it (generously: a loaded machine)
}

TEST(WatchdogChannel, ManyRanksAreAskedTogetherNotOneAfterAnother) {
  std::map<int, std::string> positions;
  std::vector<int> silent;
  for (int r = 1; r <= 120; ++r) {
    positions[r] = r % 2 == 0 ? "measuring" : "waiting";
    if (r % 10 == 0) silent.push_back(r);
  }
  AnsweringRanks ranks(positions, silent);
  std::vector<WatchdogEndpoint> endpoints;
  for (int r = 1; r <= 120; ++r) endpoints.push_back(ranks.endpoint(r));
  // 12 silent ranks of 0.4 s per address would take 10 s one after another; with 32
  // sockets open at once all answers arrive within the 4 s budget.
  const std::map<int, std::string> answers = ask_positions(endpoints, kNonce, 4.0, 0.4, /*max_open=*/32);
  std::map<int, std::string> expected = positions;
  for (int r : silent) expected.erase(r);
  EXPECT_EQ(answers, expected);
}

TEST(WatchdogChannel, AtMostHalfTheDescriptorLimitIsOpenAtOnce) {
  EXPECT_GE(max_open_sockets(), 1u);
  EXPECT_LE(max_open_sockets(), 512u);
}

}  // namespace
}  // namespace bws::run
