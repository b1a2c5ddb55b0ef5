function out = scrabbleScore(mine, theirs)
% Total both players' scores with loops (sum is banned) and name the winner.
myTotal = 0;
k = 1;
while k <= length(mine)
    myTotal = myTotal + mine(k);
    k = k + 1;
end
theirTotal = 0;
for t = theirs
    theirTotal = theirTotal + t;
end
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
