#pragma once
// The shift pattern (mpiGraph's): in step k = 1..N-1 member i sends to
// (i+k) mod N while it receives from (i-k) mod N, so every ordered pair is
// measured exactly once and every member sends and receives in every step.
namespace bws::links {

inline int send_partner(int member, int step, int members) { return (member + step) % members; }
inline int receive_partner(int member, int step, int members) {
  return ((member - step) % members + members) % members;
}

}  // namespace bws::links
