// mime_probe FILE...: the MIME type Qt's QMimeDatabase (shared-mime-info, as a desktop reads it)
// gives each file, one per line. Built only for packaging/tests/mime_types.sh.
#include <QCoreApplication>
#include <QMimeDatabase>
#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QMimeDatabase db;
    for (int i = 1; i < argc; ++i)
        std::printf("%s\n", qPrintable(db.mimeTypeForFile(QString::fromLocal8Bit(argv[i])).name()));
    return 0;
}
