#pragma once
// What a running benchmark may use besides its Team: a progress sink and a
// barrier across the ranks of its node. Both are interfaces so that a
// benchmark never sees MPI; the coordinator implements them.
#include <string_view>

namespace bws {

class Progress {
 public:
  virtual ~Progress() = default;
  // fraction in [0, 1] of the current benchmark; stage is a short label.
  virtual void report(std::string_view stage, double fraction) = 0;
};

class NodeSync {
 public:
  virtual ~NodeSync() = default;
  // Returns when every rank of this node has called it: ranks sharing a node
  // start each timed kernel together, so their rates add up.
  virtual void barrier() = 0;
};

class NullProgress final : public Progress {
 public:
  void report(std::string_view, double) override {}
};
class NoNodeSync final : public NodeSync {
 public:
  void barrier() override {}
};

struct RunContext {
  Progress& progress;
  NodeSync& node_sync;
};

}  // namespace bws
