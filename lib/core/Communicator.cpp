#include "core/Communicator.hpp"

#include <chrono>
#include <thread>

namespace bws {

void wait_quietly_at_barrier(Communicator& comm) {
  comm.post_barrier();
  while (!comm.test_all()) std::this_thread::sleep_for(std::chrono::microseconds(200));
}

}  // namespace bws
