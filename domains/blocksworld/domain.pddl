;; Blocks-world, the standard four-operator version.
;;
;; Blocks stand on the table or on one another; a single hand moves one
;; clear block at a time. State: (on ?x ?y) block ?x directly on block ?y,
;; (ontable ?x), (clear ?x) nothing on ?x, (holding ?x) the hand holds ?x,
;; (handempty). Every action costs 1, so the optimum is the shortest plan.
;; Problems: `plan generate blocksworld --blocks N --seed S`.
(define (domain blocksworld)
  (:requirements :strips)
  (:predicates
    (on ?x ?y)
    (ontable ?x)
    (clear ?x)
    (handempty)
    (holding ?x))

  ;; Lift a clear block from the table.
  (:action pick-up
    :parameters (?x)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (holding ?x)
                 (not (ontable ?x)) (not (clear ?x)) (not (handempty))))

  ;; Put the held block on the table.
  (:action put-down
    :parameters (?x)
    :precondition (holding ?x)
    :effect (and (ontable ?x) (clear ?x) (handempty)
                 (not (holding ?x))))

  ;; Put the held block ?x on the clear block ?y.
  (:action stack
    :parameters (?x ?y)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (clear ?x) (handempty)
                 (not (holding ?x)) (not (clear ?y))))

  ;; Lift the clear block ?x off the block ?y.
  (:action unstack
    :parameters (?x ?y)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y)
                 (not (on ?x ?y)) (not (clear ?x)) (not (handempty)))))
