; An action whose effects change one value twice: the step is undefined,
; so the action can never be applied.
(define (domain double-update)
  (:requirements :numeric-fluents :action-costs)
  (:functions (level) (total-cost))
  (:action fill :parameters ()
    :precondition (< (level) 10)
    :effect (and (increase (level) 3) (assign (level) 5) (increase (total-cost) 1))))
