#include "run/SetupFailure.hpp"

#include <algorithm>
#include <exception>

#include "core/Errors.hpp"
#include "run/MpiWorld.hpp"

namespace bws::run {
namespace {

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  return text;
}

}  // namespace

std::optional<SetupFailure> failure_of(const std::function<void()>& step, const std::string& who) {
  const std::string prefix = who.empty() ? "" : who + ": ";
  try {
    step();
    return std::nullopt;
  } catch (const UsageError& e) {
    return SetupFailure{kExitUsage, one_line(e.what())};
  } catch (const std::bad_alloc&) {
    return SetupFailure{kExitFailure, prefix + "out of memory"};
  } catch (const std::exception& e) {
    return SetupFailure{kExitFailure, prefix + one_line(e.what())};
  } catch (...) {
    return SetupFailure{kExitFailure, prefix + "an unknown error"};
  }
}

std::optional<SetupFailure> agree_on_failure(MPI_Comm comm, const std::optional<SetupFailure>& mine) {
  const std::optional<int> first = first_failing_rank(comm, mine.has_value());
  if (!first) return std::nullopt;
  int code = mine ? mine->exit_code : kExitFailure;
  MPI_Bcast(&code, 1, MPI_INT, *first, comm);
  return SetupFailure{code, broadcast_text(comm, mine ? mine->message : std::string(), *first)};
}

}  // namespace bws::run
