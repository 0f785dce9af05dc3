#pragma once
// Where each slot sits: the socket and channel its Locator and Bank Locator
// texts name, with sockets renumbered from 0. Shared by the two SMBIOS
// readers (SmbiosParse.cpp); dimm_place itself is in MemoryPopulation.hpp.
#include <vector>

#include "model/MemoryPopulation.hpp"

namespace bws::model {

// Sockets as the locators number them (CPU0/CPU1, CPU1/CPU2, P0/P1) become
// 0, 1, ... in ascending order. A board whose locators name no CPU at all
// is taken for a one-socket board (laptops, desktops, "DIMM_A1").
void place_slots(std::vector<DimmSlot>& slots);

}  // namespace bws::model
