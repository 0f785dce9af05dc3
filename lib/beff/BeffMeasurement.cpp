#include "beff/BeffMeasurement.hpp"

namespace bws::beff {

const char* method_name(ExchangeMethod method) {
  return method == ExchangeMethod::Sendrecv ? "sendrecv" : "nonblocking";
}

std::optional<ExchangeMethod> method_from_name(const std::string& name) {
  if (name == "sendrecv") return ExchangeMethod::Sendrecv;
  if (name == "nonblocking") return ExchangeMethod::Nonblocking;
  return std::nullopt;
}

}  // namespace bws::beff
