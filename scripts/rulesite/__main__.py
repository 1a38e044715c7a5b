from rulesite.cli import main

raise SystemExit(main())
