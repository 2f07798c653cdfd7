#pragma once
// The viewer's names for what it has open (core/session/): the one ui header that brings them into
// skewui, so that the views and the window name a Session as they did when it lived here.

#include "session/session.h"
#include "session/snapshots.h"
#include "session/warnings.h"

namespace skewui {

using skew::CompareSession;
using skew::CompareSessionPtr;
using skew::Session;
using skew::SessionPtr;
using skew::SideError;
using skew::indexSession;
using skew::loadComparison;
using skew::loadSession;

}  // namespace skewui
