// GoogleTest main for the GUI tests: a QApplication on the offscreen platform (set by CMake), at the
// Qt scale factor SKEWSCOPE_GUI_SCALE_FACTOR when the test executable defines it.
#include <QApplication>
#include <QDir>
#include <QSettings>

#include <gtest/gtest.h>

#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

#include "gui_entry.h"

int main(int argc, char** argv) {
    qputenv("SKEWSCOPE_NO_DIALOGS", "1");
#ifdef SKEWSCOPE_GUI_SCALE_FACTOR
    // the scaled GUI tests: Qt reads the factor when the application starts, so it is set here
    qputenv("QT_SCALE_FACTOR", SKEWSCOPE_GUI_SCALE_FACTOR);
#endif
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // a private runtime folder for this process, removed at exit (tests leave nothing in /tmp)
    QByteArray runtimeDir = "/tmp/skewscope-test-runtime-" + QByteArray::number(::getpid());
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        ::mkdir(runtimeDir.constData(), 0700);
        qputenv("XDG_RUNTIME_DIR", runtimeDir);
    } else {
        runtimeDir.clear();
    }
    // settings (recent files, analysis settings, splitters, export folder) in a private folder,
    // empty at the start: no test sees another's or the user's state
    QByteArray settingsDir = "/tmp/skewscope-test-settings-" + QByteArray::number(::getpid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromLocal8Bit(settingsDir));
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, QString::fromLocal8Bit(settingsDir));
    // the profile cache too: never the user's, removed with the settings
    qputenv("SKEWSCOPE_CACHE_DIR", settingsDir + "/cache");
    QApplication app(argc, argv);
    skewui::keepCNumbersAndMessages();  // as the viewer does: the suite also runs under a German locale
    QCoreApplication::setOrganizationName("SkewscopeTests");
    QCoreApplication::setApplicationName("skewscope-gui-tests");
    QSettings().clear();
    ::testing::InitGoogleTest(&argc, argv);
    // each test starts without settings, also when several run in one process
    struct ClearSettings : ::testing::EmptyTestEventListener {
        void OnTestStart(const ::testing::TestInfo&) override { QSettings().clear(); }
    };
    ::testing::UnitTest::GetInstance()->listeners().Append(new ClearSettings);
    int rc = RUN_ALL_TESTS();
    if (!runtimeDir.isEmpty()) {
        std::error_code ec;
        std::filesystem::remove_all(runtimeDir.toStdString(), ec);
    }
    QDir(QString::fromLocal8Bit(settingsDir)).removeRecursively();
    return rc;
}
