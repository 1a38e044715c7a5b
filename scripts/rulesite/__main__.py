from rulesite.cli import program

program()
