#pragma once
// The find bar (Ctrl+F): a query field with the hits' count and previous/next buttons, hidden until
// opened. Enter searches (core's searchRun: kernel names, correlation ids, "#12" or "3:12" for a
// collective, NVTX text) or, for the same query, goes to the next hit; Shift+Enter to the previous;
// Escape closes. Each hit gone to is emitted for the window to show (view_navigation.h).

#include <QWidget>

#include "session.h"
#include "timeline/run_search.h"

class QLabel;
class QLineEdit;
class QToolButton;

namespace skewui {

class SearchBar : public QWidget {
    Q_OBJECT
public:
    explicit SearchBar(QWidget* parent = nullptr);

    void setSession(SessionPtr s);  // a new capture: the hits are searched again on the next Enter
    void open();                     // shown, the keys in the field, its text selected
    void close();
    void next();                     // F3 / Enter: the next hit (wrapping), searching first if needed
    void previous();                 // Shift+F3 / Shift+Enter

    QLineEdit* field() const { return field_; }
    const skew::SearchResult& result() const { return result_; }
    int current() const { return current_; }  // index into result().hits, -1: none gone to
    QString countText() const;                 // "3 of 36", "36 hits", "no match", "3 of the first 100000"

signals:
    void hitChosen(const skew::SearchHit& hit);
    void closed();

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    bool searchIfNeeded();  // false: nothing to go to
    void go(int delta);

    SessionPtr s_;
    QLineEdit* field_;
    QLabel* count_;
    QToolButton* prev_;
    QToolButton* next_;
    skew::SearchResult result_;
    QString searched_;  // the query result_ holds; null: none
    int current_ = -1;
};

}  // namespace skewui
