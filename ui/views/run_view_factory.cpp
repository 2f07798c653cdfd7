#include "views/run_view_factory.h"

#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "views/whatif/whatif_view.h"

namespace skewui {

const std::vector<std::string>& runViewNames() {
    static const std::vector<std::string> names = {"timeline", "stepmap", "heatmap", "whatif"};
    return names;
}

RunView* createRunView(std::string_view name, QWidget* parent) {
    if (name == "timeline") return new TimelineView(parent);
    if (name == "stepmap") return new StepMapView(parent);
    if (name == "heatmap") return new HeatmapView(parent);
    if (name == "whatif") return new WhatIfView(parent);
    return nullptr;
}

}  // namespace skewui
