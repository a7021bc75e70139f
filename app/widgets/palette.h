#pragma once

#include <QColor>

// The Okabe-Ito colours (Okabe & Ito, "Color Universal Design", 2008): told apart with the common
// colour-vision deficiencies. Every view takes its colours from here, and gives each meaning a
// shape or a pattern as well, so that grey print and a washed-out projector keep it.
namespace Palette {
inline const QColor orange {230, 159, 0};
inline const QColor skyBlue {86, 180, 233};
inline const QColor bluishGreen {0, 158, 115};
inline const QColor yellow {240, 228, 66};
inline const QColor blue {0, 114, 178};
inline const QColor vermillion {213, 94, 0};
inline const QColor reddishPurple {204, 121, 167};
inline const QColor grey {120, 120, 120};

// What the colours mean across zsetlab.
inline const QColor stored = blue; // a request with a member of its own
inline const QColor overwritten = vermillion; // a request that only overwrote a member
inline const QColor failed = grey;
inline const QColor truth = bluishGreen; // the requests really in the window
inline const QColor counted = blue; // what the limiter counted
inline const QColor countedOnDark = skyBlue;
inline const QColor limit {90, 90, 90};
inline const QColor beyondLimit = reddishPurple; // admitted beyond the limit
inline const QColor attention = orange; // "look here"
} // namespace Palette
