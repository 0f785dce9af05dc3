#include "core/Hostlist.hpp"

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "core/OptionText.hpp"

namespace bws {
namespace {

// Top-level comma split (commas inside brackets belong to the range).
std::vector<std::string> split_top_level(const std::string& list) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth < 0) throw std::invalid_argument("host list " + quoted_input(list) + ": ']' without '['");
    if (c == ',' && depth == 0) {
      if (!current.empty()) parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (depth != 0) throw std::invalid_argument("host list " + quoted_input(list) + ": '[' without ']'");
  if (!current.empty()) parts.push_back(current);
  return parts;
}

std::string padded(unsigned long long n, std::size_t width) {
  std::string s = std::to_string(n);
  if (s.size() < width) s.insert(0, width - s.size(), '0');
  return s;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

struct Range {
  std::uint64_t first = 0, last = 0;
  std::size_t width = 0;  // the digits of `first` as written: zero padding kept
};

// The ranges of the bracket of `host` that opens at `open` ("1-3,5").
std::vector<Range> bracket_ranges(const std::string& host, std::size_t open, std::size_t close) {
  const std::string ranges = host.substr(open + 1, close - open - 1);
  std::vector<Range> out;
  std::size_t from = 0;
  while (from <= ranges.size()) {
    const auto comma = ranges.find(',', from);
    const std::string range = ranges.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const auto dash = range.find('-');
    const std::string lo = range.substr(0, dash), hi = dash == std::string::npos ? lo : range.substr(dash + 1);
    Range r;
    r.width = lo.size();
    if (!all_digits(lo) || !all_digits(hi) || read_whole_number(lo, r.first) != NumberRead::Ok ||
        read_whole_number(hi, r.last) != NumberRead::Ok || r.last < r.first)
      throw std::invalid_argument("host list " + quoted_input(host) + ": bad range " + quoted_input(range));
    out.push_back(r);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) {
  return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

// The names one part ("r[1-2]n[1-4]") stands for: the product of its
// brackets' sizes.
std::uint64_t count_one(const std::string& host) {
  std::uint64_t total = 1;
  for (std::size_t open = host.find('['); open != std::string::npos; open = host.find('[', open + 1)) {
    const auto close = host.find(']', open);
    std::uint64_t names = 0;
    for (const Range& r : bracket_ranges(host, open, close))
      names = saturating_add(names, saturating_add(r.last - r.first, 1));
    total = saturating_multiply(total, names);
    open = close;
  }
  return total;
}

void expand_one(const std::string& host, std::vector<std::string>& out) {
  const auto open = host.find('[');
  if (open == std::string::npos) {
    out.push_back(host);
    return;
  }
  const auto close = host.find(']', open);
  const std::string prefix = host.substr(0, open), rest = host.substr(close + 1);
  for (const Range& r : bracket_ranges(host, open, close))
    for (std::uint64_t n = r.first; n <= r.last; ++n) expand_one(prefix + padded(n, r.width) + rest, out);
}

}  // namespace

std::uint64_t count_hostlist(const std::string& list) {
  std::uint64_t total = 0;
  for (const std::string& part : split_top_level(list)) total = saturating_add(total, count_one(part));
  return total;
}

std::vector<std::string> expand_hostlist(const std::string& list) {
  const std::uint64_t names = count_hostlist(list);
  if (names > kMaxHostlistNames)
    throw HostlistTooLong("host list " + quoted_input(list) + " names " +
                          (names == UINT64_MAX ? std::string("more than 2^64") : std::to_string(names)) +
                          " hosts; allowed: at most " + std::to_string(kMaxHostlistNames));
  std::vector<std::string> hosts;
  hosts.reserve(static_cast<std::size_t>(names));
  for (const std::string& part : split_top_level(list)) expand_one(part, hosts);
  return hosts;
}

std::string compress_hostlist(const std::vector<std::string>& hosts) {
  struct Group {
    std::string prefix;
    std::size_t width = 0;  // 0: numbers without padding
    std::set<unsigned long long> numbers;
    bool plain = false;     // a host without a trailing number
  };
  // Zero-padded widths per prefix ("gpu08" pads to 2): an unpadded number
  // of that many digits ("gpu10") belongs to the same range.
  auto split_number = [](const std::string& h) {
    std::size_t d = h.size();
    while (d > 0 && std::isdigit(static_cast<unsigned char>(h[d - 1]))) --d;
    return std::make_pair(h.substr(0, d), h.substr(d));
  };
  std::set<std::pair<std::string, std::size_t>> padded_widths;
  for (const std::string& h : hosts) {
    const auto [prefix, digits] = split_number(h);
    if (digits.size() > 1 && digits[0] == '0') padded_widths.insert({prefix, digits.size()});
  }
  std::vector<Group> groups;
  std::set<std::string> seen;
  for (const std::string& h : hosts) {
    if (!seen.insert(h).second) continue;
    const auto [prefix, digits] = split_number(h);
    Group key;
    key.prefix = prefix;
    if (digits.empty() || digits.size() > 18) {
      key.prefix = h;
      key.plain = true;
      groups.push_back(key);
      continue;
    }
    key.width = padded_widths.count({prefix, digits.size()}) ? digits.size() : 0;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return !g.plain && g.prefix == key.prefix && g.width == key.width;
    });
    if (it == groups.end()) it = groups.insert(groups.end(), key);
    std::uint64_t number = 0;
    read_whole_number(digits, number);  // at most 18 digits, checked above
    it->numbers.insert(number);
  }
  std::string out;
  for (const Group& g : groups) {
    if (!out.empty()) out += ',';
    if (g.plain) {
      out += g.prefix;
      continue;
    }
    if (g.numbers.size() == 1) {
      out += g.prefix + padded(*g.numbers.begin(), g.width);
      continue;
    }
    std::string ranges;
    auto it = g.numbers.begin();
    while (it != g.numbers.end()) {
      const unsigned long long first = *it;
      unsigned long long last = first;
      auto next = std::next(it);
      while (next != g.numbers.end() && *next == last + 1) last = *next++;
      if (!ranges.empty()) ranges += ',';
      ranges += padded(first, g.width);
      if (last > first) {
        ranges += '-';
        ranges += padded(last, g.width);
      }
      it = next;
    }
    out += g.prefix + "[" + ranges + "]";
  }
  return out;
}

}  // namespace bws
