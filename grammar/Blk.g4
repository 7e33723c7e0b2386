// Blk.g4 — the one grammar of the blk kernel language (LANGUAGE.md v0).
//
// C++ is generated from it at build time (compiler/lib/Parse/CMakeLists.txt)
// with Debian's antlr4 4.7.2; the generated code is never committed.
//
// Shape of the rules, chosen for robustness on hostile input:
//  - one rule per precedence level with `(op operand)*` loops, prefix
//    operators as a `*` loop and `else if` chains as a loop, so that long
//    operator chains do not recurse in the parser (only brackets nest, and
//    the parser refuses brackets nested deeper than a limit before parsing);
//  - lexical errors are tokens (UNTERMINATED_*, BAD_NUMBER, ERROR_CHAR) that
//    the parser library reports before parsing;
//  - the input stream holds one symbol per byte (see BlkParser.cpp), so token
//    offsets are byte offsets and invalid UTF-8 cannot upset the lexer.
grammar Blk;

// ---- Declarations -----------------------------------------------------------
unit : decl* EOF ;

decl
    : importDecl
    | constDecl
    | functionDecl
    ;

importDecl : IMPORT IDENT (DOT IDENT)* (AS IDENT)? SEMI ;

constDecl : CONST IDENT (COLON typeRef)? ASSIGN expr SEMI ;

functionDecl
    : attribute* (KERNEL | FN) IDENT LPAREN (param (COMMA param)* COMMA?)? RPAREN
      (ARROW typeRef)? block
    ;

// `@config(BM = 128, num_warps = 4)`, `@grid(cdiv(n, BLOCK))`, `@aligned(16)`.
attribute : AT IDENT (LPAREN (attrArg (COMMA attrArg)* COMMA?)? RPAREN)? ;
attrArg : IDENT ASSIGN expr | expr ;

param : CONST? IDENT (COLON typeRef)? attribute* ;

// `f32`, `*f16`, `f32[N]`, `*f16[64, 64]`.
typeRef : STAR? IDENT (LBRACK expr (COMMA expr)* RBRACK)? ;

// ---- Statements -------------------------------------------------------------
block : LBRACE stmt* RBRACE ;

stmt
    : letStmt
    | ifStmt
    | forStmt
    | whileStmt
    | breakStmt
    | continueStmt
    | returnStmt
    | staticAssertStmt
    | exprOrAssignStmt
    ;

letStmt : (LET | VAR | CONST) IDENT (COLON typeRef)? ASSIGN expr SEMI ;
ifStmt : IF expr block (ELSE IF expr block)* (ELSE block)? ;
forStmt : FOR IDENT IN expr block ;
whileStmt : WHILE expr block ;
breakStmt : BREAK SEMI ;
continueStmt : CONTINUE SEMI ;
returnStmt : RETURN expr? SEMI ;
staticAssertStmt : STATIC_ASSERT LPAREN expr (COMMA STRING)? COMMA? RPAREN SEMI ;
exprOrAssignStmt : expr (assignOp expr)? SEMI ;

assignOp
    : ASSIGN | PLUS_ASSIGN | MINUS_ASSIGN | STAR_ASSIGN | SLASH_ASSIGN
    | PERCENT_ASSIGN | AMP_ASSIGN | PIPE_ASSIGN | CARET_ASSIGN | SHL_ASSIGN
    | SHR_ASSIGN
    ;

// ---- Expressions, loosest first (LANGUAGE.md §6) ------------------------------
expr : orExpr ;
orExpr : andExpr (OROR andExpr)* ;
andExpr : bitOrExpr (ANDAND bitOrExpr)* ;
bitOrExpr : bitXorExpr (PIPE bitXorExpr)* ;
bitXorExpr : bitAndExpr (CARET bitAndExpr)* ;
bitAndExpr : eqExpr (AMP eqExpr)* ;
eqExpr : relExpr ((EQ | NE) relExpr)* ;
relExpr : shiftExpr ((LT | LE | GT | GE) shiftExpr)* ;
shiftExpr : addExpr ((SHL | SHR) addExpr)* ;
addExpr : mulExpr ((PLUS | MINUS) mulExpr)* ;
mulExpr : unaryExpr ((STAR | SLASH | PERCENT) unaryExpr)* ;
unaryExpr : (MINUS | BANG | TILDE)* castExpr ;
castExpr : postfixExpr (AS typeRef)* ;
postfixExpr : primary postfixOp* ;

postfixOp
    : LPAREN (callArg (COMMA callArg)* COMMA?)? RPAREN   # callOp
    | LBRACK indexItem (COMMA indexItem)* COMMA? RBRACK  # indexOp
    | DOT IDENT                                         # memberOp
    ;

// Named arguments: `mask: m`, `other: 0.0`, `cache: ".cg"`.
callArg : IDENT COLON expr | expr ;
indexItem : COLON | expr ;

primary
    : INT
    | FLOAT
    | STRING
    | TRUE
    | FALSE
    | NONE
    | IDENT
    | LPAREN expr RPAREN
    | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK
    ;

// ---- Lexer ----------------------------------------------------------------
// Keywords (before IDENT so that they win ties).
KERNEL : 'kernel' ;
FN : 'fn' ;
LET : 'let' ;
VAR : 'var' ;
CONST : 'const' ;
IF : 'if' ;
ELSE : 'else' ;
FOR : 'for' ;
IN : 'in' ;
WHILE : 'while' ;
RETURN : 'return' ;
BREAK : 'break' ;
CONTINUE : 'continue' ;
IMPORT : 'import' ;
AS : 'as' ;
TRUE : 'true' ;
FALSE : 'false' ;
NONE : 'None' ;
STATIC_ASSERT : 'static_assert' ;

// Punctuation and operators.
LPAREN : '(' ;
RPAREN : ')' ;
LBRACK : '[' ;
RBRACK : ']' ;
LBRACE : '{' ;
RBRACE : '}' ;
COMMA : ',' ;
SEMI : ';' ;
COLON : ':' ;
DOT : '.' ;
AT : '@' ;
ARROW : '->' ;
OROR : '||' ;
ANDAND : '&&' ;
EQ : '==' ;
NE : '!=' ;
LE : '<=' ;
GE : '>=' ;
SHL_ASSIGN : '<<=' ;
SHR_ASSIGN : '>>=' ;
SHL : '<<' ;
SHR : '>>' ;
LT : '<' ;
GT : '>' ;
PLUS_ASSIGN : '+=' ;
MINUS_ASSIGN : '-=' ;
STAR_ASSIGN : '*=' ;
SLASH_ASSIGN : '/=' ;
PERCENT_ASSIGN : '%=' ;
AMP_ASSIGN : '&=' ;
PIPE_ASSIGN : '|=' ;
CARET_ASSIGN : '^=' ;
ASSIGN : '=' ;
PLUS : '+' ;
MINUS : '-' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
AMP : '&' ;
PIPE : '|' ;
CARET : '^' ;
BANG : '!' ;
TILDE : '~' ;

// Literals. `_` separators are checked and removed by the AST builder.
FLOAT
    : DIGIT (DIGIT | '_')* '.' (DIGIT | '_')* EXPONENT?
    | '.' DIGIT (DIGIT | '_')* EXPONENT?
    | DIGIT (DIGIT | '_')* EXPONENT
    ;
INT
    : '0' [xX] [0-9a-fA-F_]+
    | '0' [bB] [01_]+
    | DIGIT (DIGIT | '_')*
    ;
STRING : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"' ;
IDENT : [A-Za-z_] [A-Za-z0-9_]* ;

fragment DIGIT : [0-9] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;

// Trivia.
LINE_COMMENT : '//' ~[\r\n]* -> channel(HIDDEN) ;
BLOCK_COMMENT : '/*' .*? '*/' -> channel(HIDDEN) ;
WS : [ \t\r\n\f\u000B]+ -> skip ;

// Lexical errors, reported by the parser library before parsing. Each is
// shorter than the valid token it shadows, so valid input never matches them.
UNTERMINATED_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* ;
UNTERMINATED_STRING : '"' (~["\\\r\n] | '\\' ~[\r\n])* '\\'? ;
BAD_NUMBER : DIGIT [0-9A-Za-z_]* ;
ERROR_CHAR : . ;
