#include "model/PairRounds.hpp"

namespace bws::model {
namespace {

// The fixed member (M - 1, with M = members rounded up to even): also the
// number of rounds, and odd, so 2 has an inverse modulo it.
int fixed_member(int members) { return members % 2 == 0 ? members - 1 : members; }

int modulo(long long value, int divisor) { return static_cast<int>((value % divisor + divisor) % divisor); }

}  // namespace

int pair_rounds(int members) { return members < 2 ? 0 : fixed_member(members); }

int round_partner(int member, int round, int members) {
  const int k = fixed_member(members);
  if (members < 2 || member < 0 || member >= members || round < 0 || round >= k) return -1;
  int partner = 0;
  if (member == k) partner = round;
  else if (member == round) partner = k;
  else partner = modulo(2LL * round - member, k);
  return partner < members ? partner : -1;  // the phantom member N (N odd): sit out
}

int round_of_pair(int a, int b, int members) {
  const int k = fixed_member(members);
  if (members < 2 || a == b || a < 0 || b < 0 || a >= members || b >= members) return -1;
  if (a == k) return b;
  if (b == k) return a;
  // 2r = a + b (mod k); (k + 1) / 2 is the inverse of 2 modulo the odd k.
  // 64 bits: (a + b) x (k + 1) / 2 passes 2^31 from about 65,000 members.
  const long long r = (static_cast<long long>(a) + b) * ((k + 1) / 2) % k;
  return static_cast<int>(r);
}

}  // namespace bws::model
