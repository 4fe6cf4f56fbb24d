// What a user asked of the checks beyond selecting them (settings.h holds it,
// check.h hands it to every check).
#pragma once

namespace qsel {

struct CheckOptions {
  int stale_after_months = 0;  // --stale-after: 0 = off (QS038 reports nothing)
  int today = 0;               // days since 1970-01-01: the day staleness is measured from
};

}  // namespace qsel
