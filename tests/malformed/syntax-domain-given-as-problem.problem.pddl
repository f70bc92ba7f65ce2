; A domain where the problem belongs: the command line's order swapped.
(define (domain not-a-problem)
  (:predicates (p)))
