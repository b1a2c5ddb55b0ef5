function h = grader_hex_(s)
% Text as hex bytes: exact for any byte, and nothing a student prints can break a frame.
  h = sprintf('%02x', double(s));
end
