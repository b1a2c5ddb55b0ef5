function out = scrabbleScore(mine, theirs)
% Ships its own grader_trip_.m (a do-nothing stand-in for the grader's tripwire, which the
% student's folder would shadow) and calls sum by a computed name.
adder = char([115 117 109]);
myTotal = cellfun(adder, {mine});
theirTotal = cellfun(adder, {theirs});
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
