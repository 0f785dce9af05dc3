#include "run/PhaseRendezvous.hpp"

#include <chrono>
#include <map>
#include <thread>

#include "run/MpiWorld.hpp"

namespace bws::run {

Rendezvous meet_at_root(MPI_Comm comm, const std::optional<std::string>& mine, double deadline, int tag) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Rendezvous result;
  if (rank != 0) {
    // First byte: 1 failed, 0 done; then the error line.
    std::string message(1, mine ? '\1' : '\0');
    if (mine) message += *mine;
    MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, tag, comm);
    const std::string verdict = broadcast_text(comm, std::string());
    if (!verdict.empty()) result.error = verdict;
    return result;
  }

  std::vector<char> arrived(static_cast<std::size_t>(size), 0);
  arrived[0] = 1;
  std::map<int, std::string> errors;
  if (mine) errors[0] = *mine;
  int pending = size - 1;
  while (pending > 0) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &flag, &status);
    if (flag) {
      int count = 0;
      MPI_Get_count(&status, MPI_CHAR, &count);
      std::string message(static_cast<std::size_t>(count), '\0');
      MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
      if (!arrived[static_cast<std::size_t>(status.MPI_SOURCE)]) --pending;
      arrived[static_cast<std::size_t>(status.MPI_SOURCE)] = 1;
      if (!message.empty() && message[0] == '\1') errors[status.MPI_SOURCE] = message.substr(1);
      continue;
    }
    if (deadline > 0 && MPI_Wtime() > deadline) break;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  for (int r = 0; r < size; ++r)
    if (!arrived[static_cast<std::size_t>(r)]) result.missing.push_back(r);
  if (!result.missing.empty()) return result;
  if (!errors.empty()) result.error = errors.begin()->second;
  broadcast_text(comm, result.error.value_or(std::string()));
  return result;
}

std::string describe_ranks(const std::vector<int>& ranks, const std::vector<std::string>& hosts) {
  std::string text;
  for (int r : ranks) {
    text += (text.empty() ? "" : ", ") + std::to_string(r);
    if (r >= 0 && static_cast<std::size_t>(r) < hosts.size()) text += " (" + hosts[static_cast<std::size_t>(r)] + ")";
  }
  return text;
}

}  // namespace bws::run
