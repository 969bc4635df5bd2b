from ledgerlite.cli import main

raise SystemExit(main())
