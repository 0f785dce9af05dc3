#include "run/MpiWorld.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace bws::run {

std::optional<std::string> launched_rank_text() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(name); v && *v) return std::string(v);
  return std::nullopt;
}

bool first_launched_rank() {
  const auto rank = launched_rank_text();
  return !rank || *rank == "0";
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  // SINGLE, as hpcc's MPI_Init: above it (FUNNELED too) Open MPI 4.1 takes
  // a lock on every call, twice the ring latency. Only the main thread
  // calls MPI: the watchdog asks the other ranks over its own TCP channel
  // (WatchdogChannel.hpp); its only MPI call is the final MPI_Abort
  // (docs/design-notes.md, "The watchdog outside MPI").
  MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string this_hostname() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string mpi_library_version() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string text(version, static_cast<std::size_t>(length));
  const auto nl = text.find_first_of("\r\n");
  if (nl != std::string::npos) text.resize(nl);
  while (!text.empty() && (text.back() == ',' || text.back() == ' ' || text.back() == '\0')) text.pop_back();
  return text;
}

std::string broadcast_text(MPI_Comm comm, const std::string& text, int root) {
  unsigned long long size = text.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, comm);
  std::string out = text;
  out.resize(size);
  if (size > 0) MPI_Bcast(out.data(), static_cast<int>(size), MPI_CHAR, root, comm);
  return out;
}

std::vector<std::string> gather_texts(MPI_Comm comm, const std::string& text) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets(lengths.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    total += static_cast<std::size_t>(lengths[r]);
  }
  std::vector<char> all(std::max<std::size_t>(total, 1));
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> texts;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    texts.emplace_back(all.data() + offsets[r], static_cast<std::size_t>(lengths[r]));
  return texts;
}

NodeLayout discover_node_layout(MPI_Comm world) {
  NodeLayout layout;
  layout.host = this_hostname();
  int world_rank = 0;
  MPI_Comm_rank(world, &world_rank);

  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &shared);
  int shared_size = 1, shared_rank = 0;
  MPI_Comm_size(shared, &shared_size);
  MPI_Comm_rank(shared, &shared_rank);

  // Within shared memory, split again by hostname: the colour is the lowest
  // shared rank with the same name.
  std::vector<char> names(static_cast<std::size_t>(shared_size) * (HOST_NAME_MAX + 1), '\0');
  std::string mine = layout.host.substr(0, HOST_NAME_MAX);
  mine.resize(HOST_NAME_MAX + 1, '\0');
  MPI_Allgather(mine.data(), HOST_NAME_MAX + 1, MPI_CHAR, names.data(), HOST_NAME_MAX + 1, MPI_CHAR, shared);
  int colour = shared_rank;
  for (int r = 0; r < shared_size; ++r) {
    if (std::strncmp(&names[static_cast<std::size_t>(r) * (HOST_NAME_MAX + 1)], mine.data(), HOST_NAME_MAX + 1) == 0) {
      colour = r;
      break;
    }
  }
  MPI_Comm_split(shared, colour, world_rank, &layout.node_comm);
  MPI_Comm_free(&shared);
  MPI_Comm_rank(layout.node_comm, &layout.local_rank);
  MPI_Comm_size(layout.node_comm, &layout.ranks_on_node);

  // Node index: the leaders, in world-rank order.
  MPI_Comm leaders = MPI_COMM_NULL;
  MPI_Comm_split(world, layout.leader() ? 0 : MPI_UNDEFINED, world_rank, &leaders);
  if (leaders != MPI_COMM_NULL) {
    MPI_Comm_rank(leaders, &layout.node_index);
    MPI_Comm_size(leaders, &layout.n_nodes);
    MPI_Comm_free(&leaders);
  }
  MPI_Bcast(&layout.node_index, 1, MPI_INT, 0, layout.node_comm);
  MPI_Allreduce(MPI_IN_PLACE, &layout.n_nodes, 1, MPI_INT, MPI_MAX, world);
  return layout;
}

std::optional<int> first_failing_rank(MPI_Comm comm, bool failed) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int first = failed ? rank : size;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return std::nullopt;
  return first;
}

std::optional<std::string> agree_on_error(MPI_Comm comm, const std::optional<std::string>& mine) {
  const std::optional<int> first = first_failing_rank(comm, mine.has_value());
  if (!first) return std::nullopt;
  return broadcast_text(comm, mine ? *mine : std::string(), *first);
}

}  // namespace bws::run
